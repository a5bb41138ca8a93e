package io.etcdj.certs.cfssl;

import io.etcdj.certs.CertificateRequest;
import io.etcdj.certs.ExtendedKeyUsage;
import io.etcdj.certs.KeyUsage;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * One signing profile of a cfssl config: usages ("signing", "key encipherment", "server auth",
 * "client auth", ...), expiry, and an optional CA constraint for intermediates.
 */
public record CfsslProfile(String name, Set<KeyUsage> keyUsages, Set<ExtendedKeyUsage> extendedKeyUsages,
        Duration expiry, boolean certificateAuthority, int maxPathLength) {

    /** cfssl's built-in default when no -config is given: a year, for servers and clients. */
    public static final CfsslProfile BUILT_IN_DEFAULT = new CfsslProfile("default",
            EnumSet.of(KeyUsage.DIGITAL_SIGNATURE, KeyUsage.KEY_ENCIPHERMENT),
            EnumSet.of(ExtendedKeyUsage.SERVER_AUTH, ExtendedKeyUsage.CLIENT_AUTH),
            Duration.ofHours(8760), false, CertificateRequest.UNLIMITED_PATH);

    public CfsslProfile {
        keyUsages = keyUsages.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(keyUsages));
        extendedKeyUsages = extendedKeyUsages.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(extendedKeyUsages));
    }

    /** Splits cfssl usage names into key usages and extended key usages; null for an unknown name. */
    static String unknownUsage(List<String> usages, Set<KeyUsage> keyUsages, Set<ExtendedKeyUsage> extended) {
        for (String usage : usages) {
            KeyUsage keyUsage = KeyUsage.byName(usage);
            ExtendedKeyUsage purpose = ExtendedKeyUsage.byName(usage);
            if (keyUsage != null) {
                keyUsages.add(keyUsage);
            } else if (purpose != null) {
                extended.add(purpose);
            } else {
                return usage;
            }
        }
        return null;
    }

    /** Applies usages, lifetime and CA constraint to a request made from a cfssl CSR. */
    public CertificateRequest apply(CertificateRequest request) {
        CertificateRequest result = request.keyUsages(keyUsages).extendedKeyUsages(extendedKeyUsages).validity(expiry);
        return certificateAuthority ? result.certificateAuthority(true, maxPathLength) : result;
    }
}
