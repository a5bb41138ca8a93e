package io.etcdj.certs;

import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.interfaces.ECKey;
import java.security.interfaces.RSAKey;
import java.security.spec.ECGenParameterSpec;
import java.util.Locale;

/**
 * Key algorithm and size of a new certificate: ECDSA on P-256/P-384/P-521 or RSA of 2048 bits
 * and more. The names follow cfssl's CSR {@code key} object ({@code "algo": "ecdsa", "size": 256}).
 */
public record KeySpec(Algorithm algorithm, int size) {

    /** The key algorithms Go's crypto/tls and the JDK both accept. */
    public enum Algorithm { ECDSA, RSA }

    public static final KeySpec ECDSA_P256 = new KeySpec(Algorithm.ECDSA, 256);
    public static final KeySpec ECDSA_P384 = new KeySpec(Algorithm.ECDSA, 384);
    /** What etcd's own {@code --auto-tls} uses. */
    public static final KeySpec ECDSA_P521 = new KeySpec(Algorithm.ECDSA, 521);
    public static final KeySpec RSA_2048 = new KeySpec(Algorithm.RSA, 2048);
    public static final KeySpec RSA_4096 = new KeySpec(Algorithm.RSA, 4096);
    public static final KeySpec DEFAULT = ECDSA_P256;

    public KeySpec {
        if (algorithm == null) {
            throw new IllegalArgumentException("key algorithm is required");
        }
        if (algorithm == Algorithm.ECDSA && size != 256 && size != 384 && size != 521) {
            throw new IllegalArgumentException("invalid ecdsa key size " + size + " (use 256, 384 or 521)");
        }
        if (algorithm == Algorithm.RSA && (size < 2048 || size > 8192)) {
            throw new IllegalArgumentException("invalid rsa key size " + size + " (use 2048 to 8192)");
        }
    }

    /** Parses cfssl's names: {@code ecdsa} or {@code rsa}; size 0 picks the algorithm's default. */
    public static KeySpec of(String algorithmName, int size) {
        String name = algorithmName == null ? "" : algorithmName.trim().toLowerCase(Locale.ROOT);
        switch (name) {
            case "ecdsa":
            case "ec":
                return new KeySpec(Algorithm.ECDSA, size == 0 ? 256 : size);
            case "rsa":
                return new KeySpec(Algorithm.RSA, size == 0 ? 2048 : size);
            default:
                throw new IllegalArgumentException("invalid key algorithm \"" + algorithmName + "\" (use ecdsa or rsa)");
        }
    }

    /** The spec of an existing key, e.g. a CA key loaded from disk or a certificate's public key. */
    public static KeySpec of(Key key) {
        if (key instanceof ECKey ec) {
            return new KeySpec(Algorithm.ECDSA, ec.getParams().getOrder().bitLength());
        }
        if (key instanceof RSAKey rsa) {
            return new KeySpec(Algorithm.RSA, rsa.getModulus().bitLength());
        }
        throw new IllegalArgumentException("unsupported private key algorithm " + key.getAlgorithm());
    }

    public KeyPair generate() {
        try {
            if (algorithm == Algorithm.ECDSA) {
                KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
                generator.initialize(new ECGenParameterSpec("secp" + size + "r1"), new SecureRandom());
                return generator.generateKeyPair();
            }
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(size, new SecureRandom());
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot generate a " + this + " key: " + e.getMessage(), e);
        }
    }

    /** The signature a key of this spec makes, matched to its strength as Go's x509 package does. */
    public String signatureAlgorithm() {
        if (algorithm == Algorithm.RSA) {
            return "SHA256withRSA";
        }
        return switch (size) {
            case 384 -> "SHA384withECDSA";
            case 521 -> "SHA512withECDSA";
            default -> "SHA256withECDSA";
        };
    }

    @Override
    public String toString() {
        return algorithm == Algorithm.ECDSA ? "ECDSA P-" + size : "RSA " + size;
    }
}
