package io.etcdj.server.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * TLS settings shared by the client and peer sides: {@code --cipher-suites} (Go's names, as
 * etcd takes them), {@code --tls-min-version}, {@code --tls-max-version} and
 * {@code --self-signed-cert-validity}. Versions are the JDK's protocol names ("TLSv1.2");
 * {@code maxVersion} is null when the runtime decides.
 */
public record TlsOptions(List<String> cipherSuites, String minVersion, String maxVersion,
                         int selfSignedCertValidityYears) {

    public static final TlsOptions DEFAULTS = new TlsOptions(List.of(), "TLSv1.2", null, 1);

    /** Go's TLS 1.2 cipher suite names that etcd accepts, mapped to the IANA names the JDK uses. */
    private static final Map<String, String> SUITES = Map.ofEntries(
            same("TLS_RSA_WITH_RC4_128_SHA"),
            same("TLS_RSA_WITH_3DES_EDE_CBC_SHA"),
            same("TLS_RSA_WITH_AES_128_CBC_SHA"),
            same("TLS_RSA_WITH_AES_256_CBC_SHA"),
            same("TLS_RSA_WITH_AES_128_CBC_SHA256"),
            same("TLS_RSA_WITH_AES_128_GCM_SHA256"),
            same("TLS_RSA_WITH_AES_256_GCM_SHA384"),
            same("TLS_ECDHE_ECDSA_WITH_RC4_128_SHA"),
            same("TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA"),
            same("TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA"),
            same("TLS_ECDHE_RSA_WITH_RC4_128_SHA"),
            same("TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA"),
            same("TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA"),
            same("TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA"),
            same("TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256"),
            same("TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256"),
            same("TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"),
            same("TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256"),
            same("TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384"),
            same("TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384"),
            // Go leaves the hash off the ChaCha20 names; newer Go releases accept both spellings.
            Map.entry("TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305", "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256"),
            Map.entry("TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305", "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256"),
            same("TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256"),
            same("TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256"));

    private static Map.Entry<String, String> same(String name) {
        return Map.entry(name, name);
    }

    /** The JDK names of the configured suites, in the order given. */
    public List<String> jdkCipherSuites() {
        return cipherSuites.stream().map(SUITES::get).toList();
    }

    static TlsOptions parse(String suites, String min, String max, int validityYears) throws ConfigException {
        List<String> names = new ArrayList<>();
        for (String s : suites.split(",")) {
            String name = s.trim();
            if (name.isEmpty()) {
                continue;
            }
            if (!SUITES.containsKey(name)) {
                throw new ConfigException("unexpected TLS cipher suite \"" + name + "\"");
            }
            names.add(name);
        }
        String minVersion = version(min);
        String maxVersion = max.isBlank() ? null : version(max);
        if (minVersion == null) {
            minVersion = "TLSv1.2";
        }
        if (maxVersion != null && minVersion.compareTo(maxVersion) > 0) {
            throw new ConfigException("min version (" + min + ") is greater than max version (" + max + ")");
        }
        if ("TLSv1.3".equals(minVersion) && !names.isEmpty()) {
            throw new ConfigException("cipher suites cannot be configured when only TLS1.3 is enabled");
        }
        return new TlsOptions(List.copyOf(names), minVersion, maxVersion, validityYears);
    }

    private static String version(String etcdName) throws ConfigException {
        return switch (etcdName.trim()) {
            case "" -> null;
            case "TLS1.2" -> "TLSv1.2";
            case "TLS1.3" -> "TLSv1.3";
            default -> throw new ConfigException("unexpected TLS version \"" + etcdName
                    + "\" (must be one of: TLS1.2, TLS1.3)");
        };
    }
}
