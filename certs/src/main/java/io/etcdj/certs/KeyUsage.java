package io.etcdj.certs;

import java.util.Locale;

/** X.509 key usage bits, with the names cfssl's signing profiles use for them. */
public enum KeyUsage {
    DIGITAL_SIGNATURE(org.bouncycastle.asn1.x509.KeyUsage.digitalSignature, 0, "digital signature"),
    CONTENT_COMMITMENT(org.bouncycastle.asn1.x509.KeyUsage.nonRepudiation, 1, "content commitment"),
    KEY_ENCIPHERMENT(org.bouncycastle.asn1.x509.KeyUsage.keyEncipherment, 2, "key encipherment"),
    DATA_ENCIPHERMENT(org.bouncycastle.asn1.x509.KeyUsage.dataEncipherment, 3, "data encipherment"),
    KEY_AGREEMENT(org.bouncycastle.asn1.x509.KeyUsage.keyAgreement, 4, "key agreement"),
    KEY_CERT_SIGN(org.bouncycastle.asn1.x509.KeyUsage.keyCertSign, 5, "cert sign"),
    CRL_SIGN(org.bouncycastle.asn1.x509.KeyUsage.cRLSign, 6, "crl sign"),
    ENCIPHER_ONLY(org.bouncycastle.asn1.x509.KeyUsage.encipherOnly, 7, "encipher only"),
    DECIPHER_ONLY(org.bouncycastle.asn1.x509.KeyUsage.decipherOnly, 8, "decipher only");

    private final int bouncyCastleBit;
    private final int jdkIndex;
    private final String displayName;

    KeyUsage(int bouncyCastleBit, int jdkIndex, String displayName) {
        this.bouncyCastleBit = bouncyCastleBit;
        this.jdkIndex = jdkIndex;
        this.displayName = displayName;
    }

    int bouncyCastleBit() {
        return bouncyCastleBit;
    }

    /** Index into {@link java.security.cert.X509Certificate#getKeyUsage()}. */
    int jdkIndex() {
        return jdkIndex;
    }

    /** cfssl's name, also what {@code inspect} prints. */
    public String displayName() {
        return displayName;
    }

    /** Finds a usage by cfssl's name; {@code "signing"} is cfssl's alias for digital signature. */
    public static KeyUsage byName(String name) {
        String wanted = name.trim().toLowerCase(Locale.ROOT);
        if (wanted.equals("signing")) {
            return DIGITAL_SIGNATURE;
        }
        if (wanted.equals("key cert sign")) {
            return KEY_CERT_SIGN;
        }
        for (KeyUsage usage : values()) {
            if (usage.displayName.equals(wanted)) {
                return usage;
            }
        }
        return null;
    }
}
