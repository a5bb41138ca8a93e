package io.etcdj.certs;

/**
 * How a private key is written. Go's crypto/tls, and so etcd, reads all of them; the JDK-based
 * members of etcdj read all of them too (see {@link PemFiles#readPrivateKey}).
 */
public enum KeyFormat {
    /** PKCS#8 {@code -----BEGIN PRIVATE KEY-----}, the default. */
    PKCS8,
    /**
     * The algorithm's own structure, as cfssljson and openssl's older tools write it: PKCS#1
     * {@code RSA PRIVATE KEY} or SEC 1 {@code EC PRIVATE KEY}.
     */
    TRADITIONAL
}
