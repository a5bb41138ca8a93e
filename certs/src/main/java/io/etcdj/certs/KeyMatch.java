package io.etcdj.certs;

import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPrivateKey;
import java.security.interfaces.RSAPublicKey;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x9.ECNamedCurveTable;
import org.bouncycastle.asn1.x9.X9ECParameters;
import org.bouncycastle.math.ec.ECPoint;

/**
 * Does a private key belong to a certificate? The check Go's {@code tls.X509KeyPair} makes: the
 * public half derived from the private key must equal the certificate's public key.
 */
public final class KeyMatch {
    private KeyMatch() {
    }

    public static boolean matches(X509Certificate certificate, PrivateKey key) {
        return matches(certificate.getPublicKey(), key);
    }

    public static boolean matches(PublicKey publicKey, PrivateKey key) {
        if (publicKey instanceof RSAPublicKey rsaPublic) {
            return key instanceof RSAPrivateKey rsaPrivate && rsaPublic.getModulus().equals(rsaPrivate.getModulus());
        }
        if (publicKey instanceof ECPublicKey ecPublic) {
            return key instanceof ECPrivateKey ecPrivate && ecMatches(ecPublic, ecPrivate);
        }
        return signatureMatches(publicKey, key);
    }

    /** The error for a mismatch, with Go's text and both files named. */
    public static TlsMaterialException mismatch(Path certificateFile, Path keyFile) {
        return new TlsMaterialException(keyFile, "tls: private key does not match public key in " + certificateFile);
    }

    private static boolean ecMatches(ECPublicKey publicKey, ECPrivateKey key) {
        try {
            PrivateKeyInfo info = PrivateKeyInfo.getInstance(key.getEncoded());
            X9ECParameters curve = ECNamedCurveTable.getByOID(
                    ASN1ObjectIdentifier.getInstance(info.getPrivateKeyAlgorithm().getParameters()));
            if (curve == null) {
                return signatureMatches(publicKey, key);
            }
            ECPoint derived = curve.getG().multiply(key.getS()).normalize();
            return derived.getAffineXCoord().toBigInteger().equals(publicKey.getW().getAffineX())
                    && derived.getAffineYCoord().toBigInteger().equals(publicKey.getW().getAffineY());
        } catch (IllegalArgumentException e) {
            return signatureMatches(publicKey, key);
        }
    }

    /** Fallback for other algorithms (Ed25519): sign a random challenge and verify it. */
    private static boolean signatureMatches(PublicKey publicKey, PrivateKey key) {
        if (!publicKey.getAlgorithm().equals(key.getAlgorithm())) {
            return false;
        }
        try {
            byte[] challenge = new byte[32];
            new SecureRandom().nextBytes(challenge);
            Signature signer = Signature.getInstance(key.getAlgorithm());
            signer.initSign(key);
            signer.update(challenge);
            byte[] signature = signer.sign();
            Signature verifier = Signature.getInstance(publicKey.getAlgorithm());
            verifier.initVerify(publicKey);
            verifier.update(challenge);
            return verifier.verify(signature);
        } catch (GeneralSecurityException e) {
            return false;
        }
    }
}
