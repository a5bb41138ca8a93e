package io.etcdj.certs;

import static org.bouncycastle.asn1.x509.KeyUsage.cRLSign;
import static org.bouncycastle.asn1.x509.KeyUsage.dataEncipherment;
import static org.bouncycastle.asn1.x509.KeyUsage.decipherOnly;
import static org.bouncycastle.asn1.x509.KeyUsage.digitalSignature;
import static org.bouncycastle.asn1.x509.KeyUsage.encipherOnly;
import static org.bouncycastle.asn1.x509.KeyUsage.keyAgreement;
import static org.bouncycastle.asn1.x509.KeyUsage.keyCertSign;
import static org.bouncycastle.asn1.x509.KeyUsage.keyEncipherment;
import static org.bouncycastle.asn1.x509.KeyUsage.nonRepudiation;

import java.util.Locale;

/**
 * X.509 key usage bits, with the names cfssl's signing profiles use for them. Each carries
 * BouncyCastle's bit for it (statically imported: BouncyCastle's class is also called KeyUsage).
 */
public enum KeyUsage {
    DIGITAL_SIGNATURE(digitalSignature, 0, "digital signature"),
    CONTENT_COMMITMENT(nonRepudiation, 1, "content commitment"),
    KEY_ENCIPHERMENT(keyEncipherment, 2, "key encipherment"),
    DATA_ENCIPHERMENT(dataEncipherment, 3, "data encipherment"),
    KEY_AGREEMENT(keyAgreement, 4, "key agreement"),
    KEY_CERT_SIGN(keyCertSign, 5, "cert sign"),
    CRL_SIGN(cRLSign, 6, "crl sign"),
    ENCIPHER_ONLY(encipherOnly, 7, "encipher only"),
    DECIPHER_ONLY(decipherOnly, 8, "decipher only");

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
