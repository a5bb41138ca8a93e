package io.etcdj.certs.cfssl;

import com.fasterxml.jackson.databind.JsonNode;
import io.etcdj.certs.CertificateRequest;
import io.etcdj.certs.CertsException;
import io.etcdj.certs.ExtendedKeyUsage;
import io.etcdj.certs.KeyUsage;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * cfssl's signing configuration ({@code ca-config.json}):
 *
 * <pre>{@code
 * {"signing": {"default": {"usages": ["signing", "key encipherment", "server auth", "client auth"],
 *                          "expiry": "876000h"},
 *              "profiles": {"server": {"usages": [...], "expiry": "8760h"}}}}
 * }</pre>
 *
 * A profile inherits the default's expiry when it has none. Unknown fields are ignored.
 */
public final class CfsslSigningConfig {
    private final Path file;
    private final CfsslProfile defaultProfile;
    private final Map<String, CfsslProfile> profiles;

    private CfsslSigningConfig(Path file, CfsslProfile defaultProfile, Map<String, CfsslProfile> profiles) {
        this.file = file;
        this.defaultProfile = defaultProfile;
        this.profiles = Map.copyOf(profiles);
    }

    /** The configuration cfssl uses when -config is not given. */
    public static CfsslSigningConfig builtIn() {
        return new CfsslSigningConfig(null, CfsslProfile.BUILT_IN_DEFAULT, Map.of());
    }

    public static CfsslSigningConfig read(Path file, InputStream stdin) {
        JsonNode root = JsonFiles.read(file, stdin);
        JsonNode signing = JsonFiles.object(root, "signing", file);
        if (signing == null) {
            throw new CfsslFormatException(file, "missing \"signing\" object");
        }
        JsonNode defaults = JsonFiles.object(signing, "default", file);
        CfsslProfile defaultProfile = defaults == null ? CfsslProfile.BUILT_IN_DEFAULT
                : profile(file, "default", defaults, CfsslProfile.BUILT_IN_DEFAULT.expiry(), true);
        Map<String, CfsslProfile> profiles = new LinkedHashMap<>();
        JsonNode profileNodes = JsonFiles.object(signing, "profiles", file);
        if (profileNodes != null) {
            Iterator<Map.Entry<String, JsonNode>> fields = profileNodes.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> entry = fields.next();
                if (!entry.getValue().isObject()) {
                    throw new CfsslFormatException(file, "profile \"" + entry.getKey() + "\" must be an object");
                }
                profiles.put(entry.getKey(), profile(file, entry.getKey(), entry.getValue(), defaultProfile.expiry(), false));
            }
        }
        return new CfsslSigningConfig(file, defaultProfile, profiles);
    }

    private static CfsslProfile profile(Path file, String name, JsonNode node, Duration inheritedExpiry,
            boolean isDefault) {
        List<String> usages = JsonFiles.strings(node, "usages", file);
        Set<KeyUsage> keyUsages = EnumSet.noneOf(KeyUsage.class);
        Set<ExtendedKeyUsage> extended = EnumSet.noneOf(ExtendedKeyUsage.class);
        String unknown = CfsslProfile.unknownUsage(usages, keyUsages, extended);
        String where = isDefault ? "default profile" : "profile \"" + name + "\"";
        if (unknown != null) {
            throw new CfsslFormatException(file, where + ": unknown usage \"" + unknown + "\"");
        }
        if (usages.isEmpty() && !isDefault) {
            throw new CfsslFormatException(file, where + ": no usages");
        }
        if (usages.isEmpty()) {
            keyUsages = EnumSet.copyOf(CfsslProfile.BUILT_IN_DEFAULT.keyUsages());
            extended = EnumSet.copyOf(CfsslProfile.BUILT_IN_DEFAULT.extendedKeyUsages());
        }
        String expiryText = JsonFiles.string(node, "expiry", file);
        Duration expiry = expiryText == null || expiryText.isEmpty() ? inheritedExpiry
                : CfsslCsr.expiry(file, (isDefault ? "default" : name) + ".expiry", expiryText);
        boolean isCa = false;
        int maxPathLength = CertificateRequest.UNLIMITED_PATH;
        JsonNode constraint = JsonFiles.object(node, "ca_constraint", file);
        if (constraint != null && constraint.path("is_ca").asBoolean(false)) {
            isCa = true;
            int declared = constraint.path("max_path_len").asInt(0);
            boolean zero = constraint.path("max_path_len_zero").asBoolean(false);
            maxPathLength = declared > 0 ? declared : zero ? 0 : CertificateRequest.UNLIMITED_PATH;
            keyUsages.add(KeyUsage.KEY_CERT_SIGN);
        }
        return new CfsslProfile(name, keyUsages, extended, expiry, isCa, maxPathLength);
    }

    /** The named profile, or the default for a null/empty name; unknown names are an error. */
    public CfsslProfile profile(String name) {
        if (name == null || name.isEmpty()) {
            return defaultProfile;
        }
        CfsslProfile profile = profiles.get(name);
        if (profile == null) {
            String where = file == null ? "signing configuration" : file.toString();
            String known = profiles.isEmpty() ? "none" : String.join(", ", profiles.keySet().stream().sorted().toList());
            throw new CertsException(where + ": unknown profile \"" + name + "\" (profiles: " + known + ")");
        }
        return profile;
    }

    public Map<String, CfsslProfile> profiles() {
        return profiles;
    }

    public CfsslProfile defaultProfile() {
        return defaultProfile;
    }
}
