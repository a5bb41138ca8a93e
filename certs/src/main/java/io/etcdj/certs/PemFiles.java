package io.etcdj.certs;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECPrivateKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.List;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.DERBitString;
import org.bouncycastle.asn1.edec.EdECObjectIdentifiers;
import org.bouncycastle.asn1.pkcs.PKCSObjectIdentifiers;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x9.ECNamedCurveTable;
import org.bouncycastle.asn1.x9.X9ECParameters;
import org.bouncycastle.asn1.x9.X9ObjectIdentifiers;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.openssl.PEMEncryptedKeyPair;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.pkcs.PKCS10CertificationRequest;
import org.bouncycastle.pkcs.PKCS8EncryptedPrivateKeyInfo;
import org.bouncycastle.util.io.pem.PemObject;
import org.bouncycastle.util.io.pem.PemWriter;

/**
 * Reads and writes PEM certificates and keys. Reading accepts what Go's crypto/tls accepts (PKCS#8,
 * PKCS#1 RSA, SEC 1 EC; other blocks such as EC PARAMETERS are skipped) and reports problems with
 * Go's texts plus the file name. Keys are written with mode 0600, certificates with 0644, each
 * through a temporary file and a rename so a reader never sees half a file.
 */
public final class PemFiles {

    private PemFiles() {
    }

    // ---- reading -------------------------------------------------------------------------------

    /** All certificates in a PEM file, in file order (leaf first for a chain). */
    public static List<X509Certificate> readCertificates(Path file) {
        String text = readText(file);
        List<X509Certificate> certificates = new ArrayList<>();
        try (PEMParser parser = new PEMParser(new StringReader(text))) {
            Object item;
            while ((item = parser.readObject()) != null) {
                if (item instanceof X509CertificateHolder holder) {
                    certificates.add(toJdk(holder.getEncoded(), file));
                }
            }
        } catch (TlsMaterialException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            throw new TlsMaterialException(file, "malformed PEM data: " + reason(e));
        }
        if (certificates.isEmpty()) {
            throw new TlsMaterialException(file, "tls: failed to find any PEM data in certificate input");
        }
        return certificates;
    }

    /** The first certificate of a PEM file. */
    public static X509Certificate readCertificate(Path file) {
        return readCertificates(file).get(0);
    }

    /** The first private key of a PEM file, in any of the formats Go's crypto/tls reads. */
    public static PrivateKey readPrivateKey(Path file) {
        String text = readText(file);
        try (PEMParser parser = new PEMParser(new StringReader(text))) {
            Object item;
            while ((item = parser.readObject()) != null) {
                if (item instanceof PrivateKeyInfo info) {
                    return toJdk(info, file);
                }
                if (item instanceof PEMKeyPair pair) {
                    return toJdk(pair.getPrivateKeyInfo(), file);
                }
                if (item instanceof PEMEncryptedKeyPair || item instanceof PKCS8EncryptedPrivateKeyInfo) {
                    throw new TlsMaterialException(file,
                            "private key is encrypted; etcd needs an unencrypted key");
                }
            }
        } catch (IOException | IllegalArgumentException | IllegalStateException e) {
            throw new TlsMaterialException(file, "malformed PEM data: " + reason(e));
        }
        throw new TlsMaterialException(file, "tls: failed to find any PEM data in key input");
    }

    /** Reads a PEM certificate request (cfssl's NAME.csr). */
    public static PKCS10CertificationRequest readCertificateRequest(Path file) {
        String text = readText(file);
        try (PEMParser parser = new PEMParser(new StringReader(text))) {
            Object item;
            while ((item = parser.readObject()) != null) {
                if (item instanceof PKCS10CertificationRequest request) {
                    return request;
                }
            }
        } catch (IOException | IllegalArgumentException | IllegalStateException e) {
            throw new TlsMaterialException(file, "malformed PEM data: " + reason(e));
        }
        throw new TlsMaterialException(file, "failed to find any PEM data in certificate request input");
    }

    static String readText(Path file) {
        try {
            if (Files.isDirectory(file)) {
                throw TlsMaterialException.withText(file, "read " + file + ": is a directory");
            }
            return Files.readString(file, StandardCharsets.ISO_8859_1);
        } catch (NoSuchFileException e) {
            throw TlsMaterialException.withText(file, "open " + file + ": no such file or directory");
        } catch (AccessDeniedException e) {
            throw TlsMaterialException.withText(file, "open " + file + ": permission denied");
        } catch (IOException e) {
            throw TlsMaterialException.withText(file, "read " + file + ": " + reason(e));
        }
    }

    private static X509Certificate toJdk(byte[] der, Path file) {
        try {
            return (X509Certificate) CertificateFactory.getInstance("X.509")
                    .generateCertificate(new ByteArrayInputStream(der));
        } catch (CertificateException e) {
            throw new TlsMaterialException(file, "x509: malformed certificate: " + reason(e));
        }
    }

    private static PrivateKey toJdk(PrivateKeyInfo info, Path file) {
        ASN1ObjectIdentifier oid = info.getPrivateKeyAlgorithm().getAlgorithm();
        String algorithm;
        if (oid.equals(X9ObjectIdentifiers.id_ecPublicKey)) {
            algorithm = "EC";
        } else if (oid.equals(PKCSObjectIdentifiers.rsaEncryption)) {
            algorithm = "RSA";
        } else if (oid.equals(EdECObjectIdentifiers.id_Ed25519)) {
            algorithm = "Ed25519";
        } else {
            throw new TlsMaterialException(file, "tls: unsupported private key algorithm " + oid);
        }
        try {
            return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(info.getEncoded()));
        } catch (GeneralSecurityException | IOException e) {
            throw new TlsMaterialException(file, "tls: failed to parse private key: " + reason(e));
        }
    }

    // ---- PEM text ------------------------------------------------------------------------------

    public static String certificatePem(X509Certificate certificate) {
        try {
            return pem("CERTIFICATE", certificate.getEncoded());
        } catch (CertificateException e) {
            throw new IllegalStateException("cannot encode certificate", e);
        }
    }

    public static String certificatesPem(List<X509Certificate> certificates) {
        StringBuilder text = new StringBuilder();
        certificates.forEach(certificate -> text.append(certificatePem(certificate)));
        return text.toString();
    }

    public static String privateKeyPem(PrivateKey key, KeyFormat format) {
        if (format == KeyFormat.PKCS8) {
            return pem("PRIVATE KEY", key.getEncoded());
        }
        try {
            PrivateKeyInfo info = PrivateKeyInfo.getInstance(key.getEncoded());
            if (key instanceof ECPrivateKey ec) {
                return pem("EC PRIVATE KEY", sec1(ec, info));
            }
            if (key.getAlgorithm().equals("RSA")) {
                return pem("RSA PRIVATE KEY", info.parsePrivateKey().toASN1Primitive().getEncoded());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        // Ed25519 and friends have no older format; PKCS#8 is what every reader expects.
        return pem("PRIVATE KEY", key.getEncoded());
    }

    /**
     * SEC 1 with the curve named inside, which Go needs when the key is not wrapped in PKCS#8.
     * The JDK's PKCS#8 encoding keeps the curve only in the outer algorithm identifier.
     */
    private static byte[] sec1(ECPrivateKey key, PrivateKeyInfo info) throws IOException {
        ASN1ObjectIdentifier curve = ASN1ObjectIdentifier.getInstance(info.getPrivateKeyAlgorithm().getParameters());
        X9ECParameters parameters = ECNamedCurveTable.getByOID(curve);
        BigInteger secret = key.getS();
        byte[] publicPoint = parameters.getG().multiply(secret).normalize().getEncoded(false);
        // qualified: SEC 1's structure; ECPrivateKey here is the JDK's interface
        return new org.bouncycastle.asn1.sec.ECPrivateKey(parameters.getN().bitLength(), secret,
                new DERBitString(publicPoint), curve).getEncoded();
    }

    public static String certificateRequestPem(PKCS10CertificationRequest request) {
        try {
            return pem("CERTIFICATE REQUEST", request.getEncoded());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String pem(String type, byte[] der) {
        StringWriter out = new StringWriter();
        try (PemWriter writer = new PemWriter(out)) {
            writer.writeObject(new PemObject(type, der));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    // ---- writing -------------------------------------------------------------------------------

    /** Writes public material (certificates, requests) readable by all: mode 0644. */
    public static void writePublic(Path file, String pem) {
        SafeFileWriter.write(file, pem, SafeFileWriter.PUBLIC);
    }

    /** Writes a private key readable by its owner only: mode 0600, set before any byte is written. */
    public static void writePrivate(Path file, String pem) {
        SafeFileWriter.write(file, pem, SafeFileWriter.OWNER_ONLY);
    }

    static String reason(Throwable e) {
        String message = e.getMessage();
        return message == null || message.isBlank() ? e.getClass().getSimpleName() : message.replace('\n', ' ');
    }
}
