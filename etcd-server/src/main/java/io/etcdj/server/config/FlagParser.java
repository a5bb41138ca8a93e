package io.etcdj.server.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the server's settings as etcd does: Go-style flags ({@code -name v}, {@code --name=v},
 * bare booleans), then {@code ETCD_*} environment variables for flags not given (both given is an
 * error), or, with {@code --config-file}, only the YAML file (keyed by flag names).
 */
public final class FlagParser {
    private FlagParser() {
    }

    /** The outcome: settings by flag name, or a request for help/version. */
    public record Parsed(Map<String, String> values, boolean help, boolean version, List<String> envUsed,
                         List<String> envUnrecognized) {
        Parsed(Map<String, String> values, boolean help, boolean version, List<String> envUsed) {
            this(values, help, version, envUsed, List.of());
        }
    }

    public static Parsed parse(String[] args, Map<String, String> env) throws ConfigException {
        Map<String, String> values = new LinkedHashMap<>();
        String configFile = null;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (!a.startsWith("-") || a.equals("-") || a.equals("--")) {
                throw new ConfigException("error verifying flags, '" + a + "' is not a valid flag. See 'etcd --help'.");
            }
            String body = a.startsWith("--") ? a.substring(2) : a.substring(1);
            String name = body;
            String value = null;
            int eq = body.indexOf('=');
            if (eq >= 0) {
                name = body.substring(0, eq);
                value = body.substring(eq + 1);
            }
            if (name.equals("h") || name.equals("help")) {
                return new Parsed(values, true, false, List.of());
            }
            if (name.equals("version")) {
                return new Parsed(values, false, true, List.of());
            }
            if (name.equals("config-file")) {
                if (value == null) {
                    if (i + 1 >= args.length) {
                        throw new ConfigException("flag needs an argument: -" + name, 2, true);
                    }
                    value = args[++i];
                }
                configFile = value;
                continue;
            }
            Flag f = Flag.find(name);
            if (f == null) {
                throw new ConfigException("flag provided but not defined: -" + name, 2, true);
            }
            if (value == null) {
                if (f.bool()) {
                    value = "true";
                } else {
                    if (i + 1 >= args.length) {
                        throw new ConfigException("flag needs an argument: -" + name, 2, true);
                    }
                    value = args[++i];
                }
            } else if (f.bool() && !isBool(value)) {
                throw new ConfigException("invalid boolean value \"" + value + "\" for -" + name + ": parse error", 2, true);
            }
            checkSyntax(f, value);
            values.put(name, value);
        }
        if (configFile == null) {
            configFile = env.get("ETCD_CONFIG_FILE");
        }
        if (configFile != null) {
            return new Parsed(readYaml(Path.of(configFile)), false, false, List.of());
        }
        List<String> envUsed = new java.util.ArrayList<>();
        for (Flag f : Flag.ALL) {
            String v = env.get(f.envName());
            if (v == null) {
                continue;
            }
            if (values.containsKey(f.name())) {
                throw new ConfigException("conflicting environment variable \"" + f.envName()
                        + "\" is shadowed by corresponding command-line flag (either unset environment variable or disable flag)");
            }
            if (f.bool() && !isBool(v)) {
                throw new ConfigException("invalid value \"" + v + "\" for " + f.envName() + ": parse error");
            }
            checkSyntax(f, v);
            values.put(f.name(), v);
            envUsed.add(f.envName() + "=" + v);
        }
        List<String> unrecognized = new java.util.ArrayList<>();
        for (Map.Entry<String, String> e : new java.util.TreeMap<>(env).entrySet()) {
            String key = e.getKey();
            if (key.startsWith("ETCD_") && !key.equals("ETCD_CONFIG_FILE") && !KNOWN_ENV.contains(key)) {
                unrecognized.add(key + "=" + e.getValue());
            }
        }
        return new Parsed(values, false, false, envUsed, unrecognized);
    }

    private static final java.util.Set<String> KNOWN_ENV = Flag.ALL.stream().map(Flag::envName)
            .collect(java.util.stream.Collectors.toUnmodifiableSet());

    /** Refuses values Go's flag types would not parse, with Go's message (exit 2 with usage). */
    static void checkSyntax(Flag f, String value) throws ConfigException {
        String v = value.trim();
        boolean ok = switch (f.kind()) {
            case INT -> parses(() -> Long.parseLong(v));
            case UINT -> !v.startsWith("-") && parses(() -> Long.parseUnsignedLong(v));
            case FLOAT -> parses(() -> Double.parseDouble(v));
            case DURATION -> Durations.tryParse(v) != null;
            default -> true;
        };
        if (!ok) {
            throw new ConfigException("invalid value \"" + value + "\" for flag -" + f.name() + ": parse error", 2, true);
        }
    }

    private static boolean parses(Runnable r) {
        try {
            r.run();
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** Go's strconv.ParseBool, or null. */
    static Boolean parseBool(String v) {
        return switch (v) {
            case "1", "t", "T", "true", "TRUE", "True" -> Boolean.TRUE;
            case "0", "f", "F", "false", "FALSE", "False" -> Boolean.FALSE;
            default -> null;
        };
    }

    private static boolean isBool(String v) {
        return switch (v) {
            case "1", "0", "t", "f", "T", "F", "true", "false", "TRUE", "FALSE", "True", "False" -> true;
            default -> false;
        };
    }

    static Map<String, String> readYaml(Path file) throws ConfigException {
        JsonNode root;
        try {
            root = new ObjectMapper(new YAMLFactory()).readTree(Files.readAllBytes(file));
        } catch (IOException e) {
            throw new ConfigException("error loading config file \"" + file + "\": " + firstLine(e.getMessage()));
        }
        Map<String, String> values = new LinkedHashMap<>();
        if (root == null || !root.isObject()) {
            return values;
        }
        Iterator<Map.Entry<String, JsonNode>> it = root.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            String prefix = TRANSPORT_SECURITY_SECTIONS.get(e.getKey());
            if (prefix != null && e.getValue().isObject()) {
                readSection(e.getValue(), prefix, values);
                continue;
            }
            if (Flag.find(e.getKey()) == null || e.getValue().isNull()) {
                continue; // etcd's config file may carry settings this server does not use
            }
            values.put(e.getKey(), yamlValue(Flag.find(e.getKey()), e.getValue()));
        }
        return values;
    }

    /** The config file nests the TLS settings; inside, keys are the client-side flag names. */
    private static final Map<String, String> TRANSPORT_SECURITY_SECTIONS =
            Map.of("client-transport-security", "", "peer-transport-security", "peer-");

    private static void readSection(JsonNode section, String prefix, Map<String, String> values) {
        Iterator<Map.Entry<String, JsonNode>> it = section.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            String name = prefix + e.getKey();
            if (Flag.find(name) == null || e.getValue().isNull()) {
                continue; // e.g. crl-file, allowed-cn: settings this server does not use
            }
            values.put(name, yamlValue(Flag.find(name), e.getValue()));
        }
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

    /** A scalar as text; a list (cipher-suites) as the comma-separated form the flag takes. */
    private static String yamlText(JsonNode node) {
        if (node.isArray()) {
            List<String> items = new java.util.ArrayList<>();
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

    /** etcd's usage text, listing the flags this server has. */
    public static String usage() {
        StringBuilder sb = new StringBuilder("Usage:\n\n  etcd [flags]\n    Start an etcd server.\n\n")
                .append("  etcd --version\n    Show the version of etcd.\n\n")
                .append("  etcd -h | --help\n    Show the help information about etcd.\n\n")
                .append("  etcd --config-file\n    Path to the server configuration file. Note that if a configuration file is provided, other command line flags and environment variables will be ignored.\n\n");
        String group = null;
        for (Flag f : Flag.ALL) {
            if (!f.group().equals(group)) {
                group = f.group();
                sb.append('\n').append(group).append(":\n");
            }
            sb.append("  --").append(f.name()).append(" '").append(f.defaultValue()).append("'\n    ")
                    .append(f.usage()).append('\n');
        }
        return sb.toString();
    }
}
