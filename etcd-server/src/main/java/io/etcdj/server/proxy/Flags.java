package io.etcdj.server.proxy;

import io.etcdj.cli.GoDuration;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A command's flags the way spf13/pflag parses and prints them: {@code --name=value} or
 * {@code --name value}, booleans without a value, comma-separated string lists, Go durations,
 * and pflag's error texts. Values are read back by name after {@link #parse}.
 */
public final class Flags {
    /** The value kinds the proxy commands use; the name is what pflag shows in help. */
    public enum Kind {
        STRING("string"), BOOL(""), STRINGS("strings"), DURATION("duration"), INT("int"), UINT32("uint32");

        private final String typeName;

        Kind(String typeName) {
            this.typeName = typeName;
        }
    }

    private record Flag(String name, Kind kind, Object defaultValue, String usage) {
    }

    private final Map<String, Flag> flags = new TreeMap<>();
    private final Map<String, Object> values = new TreeMap<>();
    /** pflag replaces a list's default on first use and appends on later uses. */
    private final java.util.Set<String> listTouched = new java.util.HashSet<>();
    private final List<String> positional = new ArrayList<>();
    private final java.util.Set<String> changed = new java.util.HashSet<>();
    private boolean help;

    public Flags string(String name, String def, String usage) {
        return add(new Flag(name, Kind.STRING, def, usage));
    }

    public Flags bool(String name, String usage) {
        return add(new Flag(name, Kind.BOOL, false, usage));
    }

    public Flags strings(String name, List<String> def, String usage) {
        return add(new Flag(name, Kind.STRINGS, List.copyOf(def), usage));
    }

    public Flags duration(String name, Duration def, String usage) {
        return add(new Flag(name, Kind.DURATION, def, usage));
    }

    public Flags integer(String name, long def, String usage) {
        return add(new Flag(name, Kind.INT, def, usage));
    }

    public Flags uint32(String name, long def, String usage) {
        return add(new Flag(name, Kind.UINT32, def, usage));
    }

    private Flags add(Flag f) {
        flags.put(f.name(), f);
        values.put(f.name(), f.defaultValue());
        return this;
    }

    /** Parses {@code args}; {@link #help()} tells whether -h/--help was among them. */
    public void parse(List<String> args) throws UsageException {
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("--")) {
                positional.addAll(args.subList(i + 1, args.size()));
                return;
            }
            if (a.startsWith("--")) {
                String body = a.substring(2);
                int eq = body.indexOf('=');
                String name = eq < 0 ? body : body.substring(0, eq);
                if (name.equals("help")) {
                    help = true;
                    continue;
                }
                Flag f = flags.get(name);
                if (f == null) {
                    throw new UsageException("unknown flag: --" + name);
                }
                String value;
                if (eq >= 0) {
                    value = body.substring(eq + 1);
                } else if (f.kind() == Kind.BOOL) {
                    value = "true";
                } else if (i + 1 < args.size()) {
                    value = args.get(++i);
                } else {
                    throw new UsageException("flag needs an argument: --" + name);
                }
                set(f, value);
            } else if (a.startsWith("-") && a.length() > 1) {
                // pflag reads single-dash words as shorthand clusters; only -h exists here
                char c = a.charAt(1);
                if (c != 'h') {
                    throw new UsageException("unknown shorthand flag: '" + c + "' in " + a);
                }
                help = true;
            } else {
                positional.add(a);
            }
        }
    }

    private void set(Flag f, String value) throws UsageException {
        String name = f.name();
        changed.add(name);
        switch (f.kind()) {
            case STRING -> values.put(name, value);
            case BOOL -> values.put(name, parseBool(name, value));
            case STRINGS -> {
                List<String> parsed = value.isEmpty() ? List.of() : Arrays.asList(value.split(",", -1));
                List<String> list = new ArrayList<>();
                if (listTouched.contains(name)) {
                    @SuppressWarnings("unchecked")
                    List<String> prior = (List<String>) values.get(name);
                    list.addAll(prior);
                }
                list.addAll(parsed);
                listTouched.add(name);
                values.put(name, List.copyOf(list));
            }
            case DURATION -> {
                try {
                    values.put(name, GoDuration.parse(value));
                } catch (IllegalArgumentException e) {
                    throw invalid(name, value, e.getMessage());
                }
            }
            case INT -> {
                try {
                    values.put(name, Long.parseLong(value));
                } catch (NumberFormatException e) {
                    throw invalid(name, value, "strconv.ParseInt: parsing \"" + value + "\": invalid syntax");
                }
            }
            case UINT32 -> {
                long v;
                try {
                    v = Long.parseLong(value);
                } catch (NumberFormatException e) {
                    throw invalid(name, value, "strconv.ParseUint: parsing \"" + value + "\": invalid syntax");
                }
                if (v < 0 || v > 0xFFFF_FFFFL) {
                    throw invalid(name, value, "strconv.ParseUint: parsing \"" + value + "\": "
                            + (v < 0 ? "invalid syntax" : "value out of range"));
                }
                values.put(name, v);
            }
            default -> throw new IllegalStateException(f.kind().toString());
        }
    }

    private static boolean parseBool(String name, String value) throws UsageException {
        return switch (value) {
            case "1", "t", "T", "true", "TRUE", "True" -> true;
            case "0", "f", "F", "false", "FALSE", "False" -> false;
            default -> throw invalid(name, value, "strconv.ParseBool: parsing \"" + value + "\": invalid syntax");
        };
    }

    private static UsageException invalid(String name, String value, String why) {
        return new UsageException("invalid argument \"" + value + "\" for \"--" + name + "\" flag: " + why);
    }

    /** Whether the flag was given on the command line. */
    public boolean changed(String name) {
        return changed.contains(name);
    }

    public boolean help() {
        return help;
    }

    public List<String> positional() {
        return List.copyOf(positional);
    }

    public String getString(String name) {
        return (String) values.get(name);
    }

    public boolean getBool(String name) {
        return (Boolean) values.get(name);
    }

    @SuppressWarnings("unchecked")
    public List<String> getStrings(String name) {
        return (List<String>) values.get(name);
    }

    public Duration getDuration(String name) {
        return (Duration) values.get(name);
    }

    public long getLong(String name) {
        return (Long) values.get(name);
    }

    /**
     * The "Flags:" block as pflag prints it: flags sorted by name, {@code -h, --help} among them,
     * usages aligned three spaces after the longest flag column, non-zero defaults appended.
     */
    public String usages(String helpFor) {
        Map<String, String[]> rows = new TreeMap<>();
        for (Flag f : flags.values()) {
            String left = "      --" + f.name() + (f.kind().typeName.isEmpty() ? "" : " " + f.kind().typeName);
            rows.put(f.name(), new String[] {left, f.usage() + defaultSuffix(f)});
        }
        rows.put("help", new String[] {"  -h, --help", "help for " + helpFor});
        int width = rows.values().stream().mapToInt(r -> r[0].length()).max().orElse(0);
        StringBuilder sb = new StringBuilder();
        for (String[] r : rows.values()) {
            sb.append(r[0]).append(" ".repeat(width - r[0].length())).append("   ").append(r[1]).append('\n');
        }
        return sb.toString();
    }

    private static String defaultSuffix(Flag f) {
        Object d = f.defaultValue();
        return switch (f.kind()) {
            case STRING -> ((String) d).isEmpty() ? "" : " (default \"" + d + "\")";
            case BOOL -> (Boolean) d ? " (default true)" : "";
            case STRINGS -> ((List<?>) d).isEmpty() ? "" : " (default [" + String.join(",", (List<String>) cast(d)) + "])";
            case DURATION -> ((Duration) d).isZero() ? "" : " (default " + GoDuration.format((Duration) d) + ")";
            case INT, UINT32 -> ((Long) d) == 0 ? "" : " (default " + d + ")";
        };
    }

    @SuppressWarnings("unchecked")
    private static List<String> cast(Object o) {
        return (List<String>) o;
    }
}
