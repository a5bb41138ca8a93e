package io.etcdj.server.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * etcd's YAML configuration file ({@code --config-file}), read into settings keyed by flag name.
 * Every key etcd's file knows (embed.Config's and etcdmain's json tags, 3.4 to 3.6) is either
 * applied like its flag or refused with a line naming it; nothing a file says is dropped silently.
 * Keys etcd does not know are ignored as etcd ignores them, with a warning, so a misspelt key shows.
 */
final class ConfigFile {

    /** The settings, and warnings to log once logging is set up. */
    record Contents(Map<String, String> values, List<String> warnings) {
    }

    /**
     * The keys of {@code client-transport-security} and {@code peer-transport-security} (etcd's
     * securityConfig) and the setting each sets, per side. A null setting is a key etcd accepts and
     * that has no effect there: etcd checks a client certificate's SANs only on peer listeners.
     */
    private static final Map<String, String> CLIENT_SECURITY = securityKeys("", "cert-file", "key-file",
            "client-cert-file", "client-key-file", "client-cert-auth", "trusted-ca-file", "auto-tls",
            ServerConfig.CLIENT_ALLOWED_CN, "client-cert-allowed-hostname", null);
    private static final Map<String, String> PEER_SECURITY = securityKeys("peer-", "peer-cert-file", "peer-key-file",
            "peer-client-cert-file", "peer-client-key-file", "peer-client-cert-auth", "peer-trusted-ca-file",
            "peer-auto-tls", "peer-cert-allowed-cn", "peer-cert-allowed-hostname", "peer-skip-client-san-verification");

    /** etcd keys without a flag here that only a default value may carry: what else they would ask for. */
    private static final Map<String, String> DEFAULT_ONLY = Map.of(
            "proxy", "off",
            "enable-v2", "false");

    /** etcd keys with no effect in this server whatever their value, and why. */
    private static final Map<String, String> NO_EFFECT = Map.of(
            "proxy-failure-wait", "used by the v2 proxy only, which etcd 3.6 and this server do not have",
            "proxy-refresh-interval", "used by the v2 proxy only, which etcd 3.6 and this server do not have",
            "proxy-dial-timeout", "used by the v2 proxy only, which etcd 3.6 and this server do not have",
            "proxy-write-timeout", "used by the v2 proxy only, which etcd 3.6 and this server do not have",
            "proxy-read-timeout", "used by the v2 proxy only, which etcd 3.6 and this server do not have",
            "disable-log-sampling", "this server's logger never samples",
            "grpc-additional-server-options", "Go server options, settable only by a program embedding etcd");

    /** etcd keys this server cannot honour: refused when given a value. */
    private static final Set<String> REFUSED = Set.of("discovery-config");

    private ConfigFile() {
    }

    static Contents read(Path file) throws ConfigException {
        JsonNode root;
        try {
            root = new ObjectMapper(new YAMLFactory()).readTree(Files.readAllBytes(file));
        } catch (IOException e) {
            throw new ConfigException("error loading config file \"" + file + "\": " + firstLine(e.getMessage()));
        }
        Map<String, String> values = new LinkedHashMap<>();
        List<String> warnings = new ArrayList<>();
        if (root == null || !root.isObject()) {
            return new Contents(values, warnings);
        }
        Iterator<Map.Entry<String, JsonNode>> it = root.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            String key = e.getKey();
            JsonNode value = e.getValue();
            if (value.isNull()) {
                continue; // "key:" with nothing after it: the default, as in etcd
            }
            switch (key) {
                case "client-transport-security" -> readSection(key, value, CLIENT_SECURITY, values, warnings);
                case "peer-transport-security" -> readSection(key, value, PEER_SECURITY, values, warnings);
                case "socket-options" -> readSection(key, value,
                        Map.of("reuse-port", "socket-reuse-port", "reuse-address", "socket-reuse-address"), values, warnings);
                default -> readKey(key, value, values, warnings);
            }
        }
        return new Contents(values, warnings);
    }

    private static void readKey(String key, JsonNode value, Map<String, String> values, List<String> warnings)
            throws ConfigException {
        Flag f = Flag.find(key);
        if (f != null) {
            values.put(key, yamlValue(f, value));
        } else if (DEFAULT_ONLY.containsKey(key)) {
            String text = yamlText(value).trim();
            if (!text.equals(DEFAULT_ONLY.get(key))) {
                throw new ConfigException("config file key \"" + key + "\": " + text + " is not supported by this server (only "
                        + DEFAULT_ONLY.get(key) + ")");
            }
        } else if (NO_EFFECT.containsKey(key)) {
            warnings.add("config file key \"" + key + "\" has no effect: " + NO_EFFECT.get(key));
        } else if (REFUSED.contains(key)) {
            throw new ConfigException("config file key \"" + key + "\" is not supported by this server;"
                    + " use the discovery-* keys instead");
        } else {
            warnings.add("unknown config file key \"" + key + "\" ignored");
        }
    }

    private static void readSection(String section, JsonNode node, Map<String, String> keys, Map<String, String> values,
            List<String> warnings) throws ConfigException {
        if (!node.isObject()) {
            throw new ConfigException("config file key \"" + section + "\" must hold a mapping of settings");
        }
        Iterator<Map.Entry<String, JsonNode>> it = node.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            if (e.getValue().isNull()) {
                continue;
            }
            String qualified = section + "." + e.getKey();
            if (!keys.containsKey(e.getKey())) {
                // etcd ignores it too (e.g. crl-file: the flags --client-crl-file and --peer-crl-file set it)
                warnings.add("unknown config file key \"" + qualified + "\" ignored");
                continue;
            }
            String setting = keys.get(e.getKey());
            if (setting == null) {
                warnings.add("config file key \"" + qualified + "\" has no effect: etcd checks client certificate SANs on peer listeners "
                        + "only");
                continue;
            }
            Flag f = Flag.find(setting);
            values.put(setting, f == null ? yamlText(e.getValue()) : yamlValue(f, e.getValue()));
        }
    }

    private static Map<String, String> securityKeys(String side, String certFile, String keyFile, String clientCertFile,
            String clientKeyFile, String clientCertAuth, String trustedCaFile, String autoTls, String allowedCn,
            String allowedHostname, String skipSanVerification) {
        Map<String, String> m = new HashMap<>();
        m.put("cert-file", certFile);
        m.put("key-file", keyFile);
        m.put("client-cert-file", clientCertFile);
        m.put("client-key-file", clientKeyFile);
        m.put("client-cert-auth", clientCertAuth);
        m.put("trusted-ca-file", trustedCaFile);
        m.put("auto-tls", autoTls);
        m.put("allowed-cn", allowedCn);
        m.put("allowed-hostname", allowedHostname);
        m.put("skip-client-san-verification", skipSanVerification);
        return Collections.unmodifiableMap(m);
    }

    /**
     * A setting from the file: etcd decodes durations as JSON numbers of nanoseconds, so a number
     * for a duration flag is read that way.
     */
    private static String yamlValue(Flag f, JsonNode node) {
        if (f.kind() == Flag.Kind.DURATION && node.isNumber()) {
            return node.asLong() + "ns";
        }
        return yamlText(node);
    }

    /** A scalar as text; a list (cipher-suites, allowed-cn) as the comma-separated form the flag takes. */
    private static String yamlText(JsonNode node) {
        if (node.isArray()) {
            List<String> items = new ArrayList<>();
            node.forEach(item -> items.add(item.asText()));
            return String.join(",", items);
        }
        return node.asText();
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "unreadable";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
