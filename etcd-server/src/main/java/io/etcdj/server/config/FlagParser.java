package io.etcdj.server.config;

import io.etcdj.cli.GoValues;
import io.etcdj.cli.goflag.FlagException;
import io.etcdj.cli.goflag.FlagKind;
import io.etcdj.cli.goflag.FlagSyntax;
import io.etcdj.cli.goflag.GoFlagParser;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Reads the server's settings as etcd does: Go's flag package conventions ({@code -name v},
 * {@code --name=v}, bare booleans; cli-support's {@link GoFlagParser}, which reads the gateway's and
 * grpc-proxy's flags in pflag's), then {@code ETCD_*} environment variables for flags not given
 * (both given is an error), or, with {@code --config-file}, only the YAML file (keyed by flag names).
 */
public final class FlagParser {
    private static final String VERSION = "version";
    private static final String CONFIG_FILE = "config-file";

    /**
     * Flags of etcd 0.4 and 2.x that etcd (3.4 to 3.6, its config.go "ignored" list) still accepts
     * and ignores with a warning, so an old unit file keeps working. Each is a Go bool flag
     * (flags.IgnoredFlag): given alone or as {@code --name=anything}; a separate value word is not
     * its value but a stray argument, as in etcd.
     */
    static final Set<String> IGNORED = Set.of("cluster-active-size", "cluster-remove-delay",
            "cluster-sync-interval", "config", "force", "max-result-buffer", "max-retry-attempts",
            "peer-heartbeat-interval", "peer-election-timeout", "retry-interval", "snapshot", "v", "vv",
            "test.coverprofile", "test.outputdir");

    private static final Set<String> KNOWN_ENV = Flag.ALL.stream().map(Flag::envName)
            .collect(Collectors.toUnmodifiableSet());

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
            List<String> out = new ArrayList<>();
            ignoredFlags.forEach(n -> out.add("flag \"-" + n + "\" is no longer supported - ignoring."));
            out.addAll(fileWarnings);
            return out;
        }
    }

    public static Parsed parse(String[] args, Map<String, String> env) throws ConfigException {
        GoFlagParser.Result line;
        try {
            line = new GoFlagParser(FlagSyntax.GO_FLAG, FlagParser::kindOf).parse(List.of(args));
        } catch (FlagException e) {
            throw new ConfigException(e.getMessage(), 2, true);
        }
        if (line.help()) {
            return new Parsed(Map.of(), true, false, List.of());
        }
        if (!line.positional().isEmpty()) {
            throw new ConfigException("error verifying flags, '" + line.positional().get(0)
                    + "' is not a valid flag. See 'etcd --help'.");
        }
        Map<String, String> values = new LinkedHashMap<>();
        List<String> ignored = new ArrayList<>();
        String configFile = null;
        boolean version = false;
        for (GoFlagParser.Setting s : line.settings()) {
            switch (s.name()) {
                case VERSION -> version = (Boolean) s.value();
                case CONFIG_FILE -> configFile = s.text();
                default -> {
                    if (IGNORED.contains(s.name())) {
                        ignored.add(s.name());
                    } else {
                        values.put(s.name(), canonical(s));
                    }
                }
            }
        }
        if (version) {
            return new Parsed(values, false, true, List.of());
        }
        if (configFile == null) {
            configFile = env.get("ETCD_CONFIG_FILE");
        }
        if (configFile != null) {
            ConfigFile.Contents file = ConfigFile.read(Path.of(configFile));
            return new Parsed(file.values(), false, false, List.of(), List.of(), ignored, file.warnings());
        }
        List<String> envUsed = new ArrayList<>();
        for (Flag f : Flag.ALL) {
            String v = env.get(f.envName());
            if (v == null) {
                continue;
            }
            if (values.containsKey(f.name())) {
                throw new ConfigException("conflicting environment variable \"" + f.envName()
                        + "\" is shadowed by corresponding command-line flag (either unset environment variable or disable flag)");
            }
            FlagKind kind = kindOf(f);
            try {
                values.put(f.name(), canonical(new GoFlagParser.Setting(f.name(), v, kind.parse(v))));
            } catch (IllegalArgumentException e) {
                // etcd's SetFlagsFromEnv words it, its config parsing wraps it; the reason is Go's flag value's
                throw new ConfigException("error verifying flags, invalid value " + GoValues.quote(v) + " for "
                        + f.envName() + ": " + FlagSyntax.goFlagReason(e) + ". See 'etcd --help'.");
            }
            envUsed.add(f.envName() + "=" + v);
        }
        List<String> unrecognized = new ArrayList<>();
        for (Map.Entry<String, String> e : new TreeMap<>(env).entrySet()) {
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

    /** The Go flag type of each flag etcd defines: its catalogue, --version, --config-file, the ignored ones. */
    private static FlagKind kindOf(String name) {
        if (name.equals(VERSION)) {
            return FlagKind.BOOL;
        }
        if (name.equals(CONFIG_FILE)) {
            return FlagKind.STRING;
        }
        Flag f = Flag.find(name);
        if (f != null) {
            return kindOf(f);
        }
        return IGNORED.contains(name) ? FlagKind.IGNORED : null;
    }

    private static FlagKind kindOf(Flag f) {
        return switch (f.kind()) {
            case STRING -> FlagKind.STRING;
            case BOOL -> FlagKind.BOOL;
            case INT -> FlagKind.INT;
            case UINT -> FlagKind.UINT;
            case FLOAT -> FlagKind.FLOAT;
            case DURATION -> FlagKind.DURATION;
        };
    }

    /**
     * A number in decimal whatever base it was written in ({@code 0x10} as {@code 16}, as Go's flag
     * stores it); any other value as typed.
     */
    private static String canonical(GoFlagParser.Setting s) {
        if (s.value() instanceof Long n) {
            return kindOf(s.name()) == FlagKind.UINT ? Long.toUnsignedString(n) : Long.toString(n);
        }
        return s.text();
    }

    /** Go's strconv.ParseBool, or null. */
    static Boolean parseBool(String v) {
        return switch (v) {
            case "1", "t", "T", "true", "TRUE", "True" -> Boolean.TRUE;
            case "0", "f", "F", "false", "FALSE", "False" -> Boolean.FALSE;
            default -> null;
        };
    }

    /** etcd's usage text, listing the flags this server has. */
    public static String usage() {
        StringBuilder sb = new StringBuilder("Usage:\n\n  etcd [flags]\n    Start an etcd server.\n\n")
                .append("  etcd --version\n    Show the version of etcd.\n\n")
                .append("  etcd -h | --help\n    Show the help information about etcd.\n\n")
                .append("  etcd --config-file\n    Path to the server configuration file. Note that if a configuration file is provided, "
                        + "other command line flags and environment variables will be ignored.\n\n");
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
