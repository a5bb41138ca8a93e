package io.etcdj.certs;

import java.util.Locale;
import org.bouncycastle.asn1.x509.KeyPurposeId;

/** Extended key usages (purposes), with cfssl's names. etcd cares about the first two. */
public enum ExtendedKeyUsage {
    SERVER_AUTH(KeyPurposeId.id_kp_serverAuth, "server auth"),
    CLIENT_AUTH(KeyPurposeId.id_kp_clientAuth, "client auth"),
    CODE_SIGNING(KeyPurposeId.id_kp_codeSigning, "code signing"),
    EMAIL_PROTECTION(KeyPurposeId.id_kp_emailProtection, "email protection"),
    TIME_STAMPING(KeyPurposeId.id_kp_timeStamping, "timestamping"),
    OCSP_SIGNING(KeyPurposeId.id_kp_OCSPSigning, "ocsp signing"),
    ANY(KeyPurposeId.anyExtendedKeyUsage, "any");

    private final KeyPurposeId purpose;
    private final String displayName;

    ExtendedKeyUsage(KeyPurposeId purpose, String displayName) {
        this.purpose = purpose;
        this.displayName = displayName;
    }

    KeyPurposeId purpose() {
        return purpose;
    }

    public String oid() {
        return purpose.getId();
    }

    public String displayName() {
        return displayName;
    }

    /** Finds a usage by cfssl's name ({@code "s/mime"} is its alias for email protection). */
    public static ExtendedKeyUsage byName(String name) {
        String wanted = name.trim().toLowerCase(Locale.ROOT);
        if (wanted.equals("s/mime")) {
            return EMAIL_PROTECTION;
        }
        for (ExtendedKeyUsage usage : values()) {
            if (usage.displayName.equals(wanted)) {
                return usage;
            }
        }
        return null;
    }

    public static ExtendedKeyUsage byOid(String oid) {
        for (ExtendedKeyUsage usage : values()) {
            if (usage.oid().equals(oid)) {
                return usage;
            }
        }
        return null;
    }
}
