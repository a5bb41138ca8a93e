package io.etcdj.server.proxy;

import io.etcdj.cli.GoDuration;
import io.etcdj.cli.goflag.FlagException;
import io.etcdj.cli.goflag.FlagKind;
import io.etcdj.cli.goflag.FlagSyntax;
import io.etcdj.cli.goflag.GoFlagParser;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A command's flags the way spf13/pflag parses (cli-support's GoFlagParser, the member's flag parser
 * too) and prints them: {@code --name=value} or {@code --name value}, booleans without a value,
 * comma-separated string lists, Go durations, and pflag's error texts. Values are read back by name after {@link #parse}.
 */
public final class Flags {
    private record Flag(String name, FlagKind kind, Object defaultValue, String usage) {
    }

    private final Map<String, Flag> flags = new TreeMap<>();
    private final Map<String, Object> values = new TreeMap<>();
    /** pflag replaces a list's default on first use and appends on later uses. */
    private final Set<String> listTouched = new HashSet<>();
    private final List<String> positional = new ArrayList<>();
    private final Set<String> changed = new HashSet<>();
    private boolean help;

    public Flags string(String name, String def, String usage) {
        return add(new Flag(name, FlagKind.STRING, def, usage));
    }

    public Flags bool(String name, String usage) {
        return add(new Flag(name, FlagKind.BOOL, false, usage));
    }

    public Flags strings(String name, List<String> def, String usage) {
        return add(new Flag(name, FlagKind.STRINGS, List.copyOf(def), usage));
    }

    public Flags duration(String name, Duration def, String usage) {
        return add(new Flag(name, FlagKind.DURATION, def, usage));
    }

    public Flags integer(String name, long def, String usage) {
        return add(new Flag(name, FlagKind.INT, def, usage));
    }

    public Flags uint32(String name, long def, String usage) {
        return add(new Flag(name, FlagKind.UINT32, def, usage));
    }

    private Flags add(Flag f) {
        flags.put(f.name(), f);
        values.put(f.name(), f.defaultValue());
        return this;
    }

    /** Parses {@code args}; {@link #help()} tells whether -h/--help was among them. */
    public void parse(List<String> args) throws UsageException {
        GoFlagParser.Result line;
        try {
            line = new GoFlagParser(FlagSyntax.PFLAG, name -> flags.containsKey(name) ? flags.get(name).kind() : null)
                    .parse(args);
        } catch (FlagException e) {
            throw new UsageException(e.getMessage());
        }
        help |= line.help();
        positional.addAll(line.positional());
        for (GoFlagParser.Setting s : line.settings()) {
            set(flags.get(s.name()), s.value());
        }
    }

    private void set(Flag f, Object value) {
        String name = f.name();
        changed.add(name);
        if (f.kind() != FlagKind.STRINGS) {
            values.put(name, value);
            return;
        }
        String text = (String) value;
        List<String> parsed = text.isEmpty() ? List.of() : Arrays.asList(text.split(",", -1));
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
            String type = typeName(f.kind());
            String left = "      --" + f.name() + (type.isEmpty() ? "" : " " + type);
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

    /** The value's type as pflag's help names it; none for a bool. */
    private static String typeName(FlagKind kind) {
        return switch (kind) {
            case BOOL -> "";
            case INT -> "int";
            case UINT32 -> "uint32";
            default -> kind.name().toLowerCase(); // string, strings, duration
        };
    }

    private static String defaultSuffix(Flag f) {
        Object d = f.defaultValue();
        return switch (f.kind()) {
            case STRING -> ((String) d).isEmpty() ? "" : " (default \"" + d + "\")";
            case BOOL -> (Boolean) d ? " (default true)" : "";
            case STRINGS -> ((List<?>) d).isEmpty() ? "" : " (default [" + String.join(",", (List<String>) cast(d)) + "])";
            case DURATION -> ((Duration) d).isZero() ? "" : " (default " + GoDuration.format((Duration) d) + ")";
            case INT, UINT32 -> ((Long) d) == 0 ? "" : " (default " + d + ")";
            default -> throw new IllegalStateException("no proxy flag is " + f.kind());
        };
    }

    @SuppressWarnings("unchecked")
    private static List<String> cast(Object o) {
        return (List<String>) o;
    }
}
