package io.etcdj.client;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Private keys in the PEM forms etcd's users have, turned into the PKCS#8 form the TLS stack
 * reads: PKCS#8 ({@code PRIVATE KEY}) as is, RSA in PKCS#1 ({@code RSA PRIVATE KEY}, what openssl
 * and cfssl write) and EC in SEC1 ({@code EC PRIVATE KEY}, possibly after an {@code EC PARAMETERS}
 * block) wrapped into a PKCS#8 PrivateKeyInfo. Encrypted keys are refused with a clear error, as
 * etcd's client cannot use them either.
 */
public final class PemPrivateKeys {
    private static final Pattern BLOCK = Pattern.compile(
            "-----BEGIN ([A-Z ]+)-----\\s*(.*?)-----END \\1-----", Pattern.DOTALL);
    /** 1.2.840.113549.1.1.1 rsaEncryption, with its NULL parameters. */
    private static final byte[] RSA_ALGORITHM = hex("300d06092a864886f70d0101010500");
    /** 1.2.840.10045.2.1 id-ecPublicKey. */
    private static final byte[] EC_PUBLIC_KEY_OID = hex("06072a8648ce3d0201");

    private PemPrivateKeys() {
    }

    /** The key in {@code file} as PKCS#8 PEM. */
    public static byte[] pkcs8Pem(Path file) throws IOException {
        String text = Files.readString(file, StandardCharsets.US_ASCII);
        Matcher m = BLOCK.matcher(text);
        while (m.find()) {
            String type = m.group(1);
            String body = m.group(2);
            if (type.equals("EC PARAMETERS")) {
                continue;
            }
            if (type.equals("ENCRYPTED PRIVATE KEY") || body.contains("Proc-Type: 4,ENCRYPTED")) {
                throw new IOException("private key " + file + " is encrypted; etcdctl needs an unencrypted key");
            }
            byte[] der = decode(file, body);
            byte[] pkcs8 = switch (type) {
                case "PRIVATE KEY" -> der;
                case "RSA PRIVATE KEY" -> sequence(concat(integerZero(), RSA_ALGORITHM, tlv(0x04, der)));
                case "EC PRIVATE KEY" -> sequence(concat(integerZero(),
                        sequence(concat(EC_PUBLIC_KEY_OID, curveOf(file, der))), tlv(0x04, der)));
                default -> null;
            };
            if (pkcs8 != null) {
                return ("-----BEGIN PRIVATE KEY-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(pkcs8)
                        + "\n-----END PRIVATE KEY-----\n").getBytes(StandardCharsets.US_ASCII);
            }
        }
        throw new IOException("no private key found in " + file
                + " (want PEM: PRIVATE KEY, RSA PRIVATE KEY or EC PRIVATE KEY)");
    }

    /**
     * Go's checks that a certificate and key belong together: the same key type, and the key
     * signs what the certificate's public key verifies. Returns null when they match, else Go's text.
     */
    public static String mismatch(Path certFile, byte[] pkcs8Pem) throws IOException {
        PublicKey pub;
        try (var in = Files.newInputStream(certFile)) {
            pub = CertificateFactory.getInstance("X.509").generateCertificate(in).getPublicKey();
        } catch (CertificateException e) {
            throw new IOException("failed to find any PEM data in certificate input", e);
        }
        String pem = new String(pkcs8Pem, StandardCharsets.US_ASCII).replaceAll("-----[A-Z ]+-----", "").trim();
        PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(Base64.getMimeDecoder().decode(pem));
        PrivateKey key;
        try {
            key = KeyFactory.getInstance(pub.getAlgorithm()).generatePrivate(spec);
        } catch (GeneralSecurityException e) {
            return "tls: private key type does not match public key type";
        }
        try {
            String alg = pub.getAlgorithm().equals("EC") ? "SHA256withECDSA" : "SHA256with" + pub.getAlgorithm();
            byte[] probe = "etcdctl key pair check".getBytes(StandardCharsets.US_ASCII);
            Signature signer = Signature.getInstance(alg);
            signer.initSign(key);
            signer.update(probe);
            byte[] sig = signer.sign();
            Signature verifier = Signature.getInstance(alg);
            verifier.initVerify(pub);
            verifier.update(probe);
            return verifier.verify(sig) ? null : "tls: private key does not match public key";
        } catch (GeneralSecurityException e) {
            return "tls: private key does not match public key";
        }
    }

    private static byte[] decode(Path file, String body) throws IOException {
        try {
            return Base64.getMimeDecoder().decode(body.trim());
        } catch (IllegalArgumentException e) {
            throw new IOException("private key " + file + " is not valid PEM: " + e.getMessage());
        }
    }

    /** The named-curve OID from a SEC1 ECPrivateKey's [0] parameters. */
    private static byte[] curveOf(Path file, byte[] sec1) throws IOException {
        int[] seq = header(sec1, 0);
        int pos = seq[0];
        int end = seq[0] + seq[1];
        while (pos < end) {
            int tag = sec1[pos] & 0xff;
            int[] h = header(sec1, pos);
            if (tag == 0xa0) {
                int[] oid = header(sec1, h[0]);
                byte[] out = new byte[oid[0] - h[0] + oid[1]];
                System.arraycopy(sec1, h[0], out, 0, out.length);
                return out;
            }
            pos = h[0] + h[1];
        }
        throw new IOException("EC private key " + file + " names no curve; write it with its parameters (openssl ec -param_out)");
    }

    /** {offset of the content, length of the content} of the TLV at {@code pos}. */
    private static int[] header(byte[] der, int pos) throws IOException {
        if (pos + 2 > der.length) {
            throw new IOException("truncated DER in private key");
        }
        int len = der[pos + 1] & 0xff;
        int off = pos + 2;
        if (len >= 0x80) {
            int n = len & 0x7f;
            if (n > 3 || off + n > der.length) {
                throw new IOException("malformed DER length in private key");
            }
            len = 0;
            for (int i = 0; i < n; i++) {
                len = (len << 8) | (der[off + i] & 0xff);
            }
            off += n;
        }
        if (off + len > der.length) {
            throw new IOException("truncated DER in private key");
        }
        return new int[] {off, len};
    }

    private static byte[] integerZero() {
        return new byte[] {0x02, 0x01, 0x00};
    }

    private static byte[] sequence(byte[] content) {
        return tlv(0x30, content);
    }

    private static byte[] tlv(int tag, byte[] content) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(tag);
        int n = content.length;
        if (n < 0x80) {
            out.write(n);
        } else if (n < 0x100) {
            out.write(0x81);
            out.write(n);
        } else if (n < 0x10000) {
            out.write(0x82);
            out.write(n >> 8);
            out.write(n);
        } else {
            out.write(0x83);
            out.write(n >> 16);
            out.write(n >> 8);
            out.write(n);
        }
        out.writeBytes(content);
        return out.toByteArray();
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    private static byte[] hex(String s) {
        byte[] out = new byte[s.length() / 2];
        for (int i = 0; i < out.length; i++) {
            out[i] = (byte) Integer.parseInt(s.substring(2 * i, 2 * i + 2), 16);
        }
        return out;
    }
}
