package io.etcdj.server.config;

import java.nio.file.Path;
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
                         List<String> envUnrecognized, List<String> ignoredFlags, List<String> fileWarnings) {
        Parsed(Map<String, String> values, boolean help, boolean version, List<String> envUsed) {
            this(values, help, version, envUsed, List.of(), List.of(), List.of());
        }

        /**
         * What to warn about once logging is set up: etcd's line for each legacy flag given, and
         * the config file's keys without effect or unknown.
         */
        public List<String> warnings() {
            List<String> out = new java.util.ArrayList<>();
            ignoredFlags.forEach(n -> out.add("flag \"-" + n + "\" is no longer supported - ignoring."));
            out.addAll(fileWarnings);
            return out;
        }
    }

    /**
     * Flags of etcd 0.4 and 2.x that etcd (3.4 to 3.6, its config.go "ignored" list) still accepts
     * and ignores with a warning, so an old unit file keeps working. Each is a Go bool flag
     * (flags.IgnoredFlag): given alone or as {@code --name=anything}; a separate value word is not
     * its value but a stray argument, as in etcd.
     */
    static final java.util.Set<String> IGNORED = java.util.Set.of("cluster-active-size", "cluster-remove-delay",
            "cluster-sync-interval", "config", "force", "max-result-buffer", "max-retry-attempts",
            "peer-heartbeat-interval", "peer-election-timeout", "retry-interval", "snapshot", "v", "vv",
            "test.coverprofile", "test.outputdir");

    public static Parsed parse(String[] args, Map<String, String> env) throws ConfigException {
        Map<String, String> values = new LinkedHashMap<>();
        List<String> ignored = new java.util.ArrayList<>();
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
            if (f == null && IGNORED.contains(name)) {
                ignored.add(name);
                continue;
            }
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
            ConfigFile.Contents file = ConfigFile.read(Path.of(configFile));
            return new Parsed(file.values(), false, false, List.of(), List.of(), ignored, file.warnings());
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
            if (!key.startsWith("ETCD_") || key.equals("ETCD_CONFIG_FILE") || KNOWN_ENV.contains(key)) {
                continue;
            }
            String legacy = IGNORED.stream().filter(n -> key.equals("ETCD_" + n.toUpperCase().replace('-', '_')))
                    .findFirst().orElse(null);
            if (legacy != null && !ignored.contains(legacy)) {
                ignored.add(legacy); // etcd sets its ignored flags from the environment too
                envUsed.add(key + "=" + e.getValue());
            } else if (legacy == null) {
                unrecognized.add(key + "=" + e.getValue());
            }
        }
        return new Parsed(values, false, false, envUsed, unrecognized, ignored, List.of());
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
