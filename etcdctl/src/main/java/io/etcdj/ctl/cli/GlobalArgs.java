package io.etcdj.ctl.cli;

import java.io.PrintStream;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Takes etcdctl's global flags out of the argument list (they may appear anywhere before {@code --}),
 * then applies ETCDCTL_* environment variables for flags not given, as etcd's pkg/flags does.
 */
public final class GlobalArgs {

    /** ETCDCTL_* names that are not global flags but are read elsewhere, so they draw no warning. */
    private static final Set<String> RESERVED_ENV = Set.of("ETCDCTL_API", "ETCDCTL_WATCH_KEY",
            "ETCDCTL_WATCH_RANGE_END");

    private final GlobalOptions options = new GlobalOptions();
    private final List<String> rest = new ArrayList<>();
    private final Set<String> given = new HashSet<>();
    private final List<String> consumed = new ArrayList<>();
    private String flagError;

    private GlobalArgs() {
    }

    /** Result of splitting: the options, the arguments left for the command, and the first flag error. */
    public GlobalOptions options() {
        return options;
    }

    public List<String> rest() {
        return rest;
    }

    /** The global-flag words as typed (the shell repeats them before every line). */
    public List<String> consumed() {
        return consumed;
    }

    /** pflag's text for the first bad global flag, or null. */
    public String flagError() {
        return flagError;
    }

    public static GlobalArgs split(String[] args) {
        GlobalArgs g = new GlobalArgs();
        boolean literal = false;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (literal || a.equals("-") || !a.startsWith("-")) {
                g.rest.add(a);
                continue;
            }
            if (a.equals("--")) {
                literal = true;
                g.rest.add(a);
                continue;
            }
            if (a.startsWith("--")) {
                String body = a.substring(2);
                int eq = body.indexOf('=');
                String name = eq < 0 ? body : body.substring(0, eq);
                GlobalFlag f = GlobalOptions.byName(name);
                if (f == null) {
                    g.rest.add(a);
                    continue;
                }
                String value;
                g.consumed.add(a);
                if (eq >= 0) {
                    value = body.substring(eq + 1);
                } else if (f.kind() == GlobalFlag.Kind.BOOL) {
                    value = "true";
                } else if (i + 1 < args.length) {
                    value = args[++i];
                    g.consumed.add(value);
                } else {
                    g.fail("flag needs an argument: --" + name);
                    continue;
                }
                g.apply(f, value, "--" + name);
            } else {
                String shorthand = a.substring(1, 2);
                GlobalFlag f = GlobalOptions.byShorthand(shorthand);
                if (f == null) {
                    g.rest.add(a);
                    continue;
                }
                String value;
                g.consumed.add(a);
                if (a.length() > 2) {
                    value = a.charAt(2) == '=' ? a.substring(3) : a.substring(2);
                } else if (i + 1 < args.length) {
                    value = args[++i];
                    g.consumed.add(value);
                } else {
                    g.fail("flag needs an argument: '" + shorthand + "' in -" + shorthand);
                    continue;
                }
                g.apply(f, value, "-" + shorthand + ", --" + f.name());
            }
        }
        return g;
    }

    private void apply(GlobalFlag f, String value, String shownName) {
        given.add(f.name());
        try {
            options.set(f, value);
        } catch (IllegalArgumentException e) {
            fail("invalid argument \"" + value + "\" for \"" + shownName + "\" flag: " + e.getMessage());
        }
    }

    private void fail(String message) {
        if (flagError == null) {
            flagError = message;
        }
    }

    /**
     * Applies ETCDCTL_* variables for flags not given on the command line. Unknown variables draw a
     * warning; a variable that shadows a given flag is fatal, as in etcd.
     *
     * @throws CtlException for a conflicting or unparsable variable
     */
    public void applyEnvironment(Map<String, String> env, PrintStream err) {
        for (Map.Entry<String, String> e : new TreeMap<>(env).entrySet()) {
            String key = e.getKey();
            if (!key.startsWith("ETCDCTL_") || RESERVED_ENV.contains(key)) {
                continue;
            }
            GlobalFlag flag = null;
            for (GlobalFlag f : GlobalOptions.FLAGS) {
                if (f.envName().equals(key)) {
                    flag = f;
                }
            }
            if (flag == null) {
                err.println(logPrefix('W') + "unrecognized environment variable " + key + "=" + e.getValue());
                continue;
            }
            if (given.contains(flag.name())) {
                err.println(logPrefix('C') + "conflicting environment variable \"" + key
                        + "\" is shadowed by corresponding command-line flag (either unset environment variable or disable flag)");
                throw new CtlException(ExitCodes.ERROR, null);
            }
            try {
                options.set(flag, e.getValue());
            } catch (IllegalArgumentException ex) {
                err.println(logPrefix('C') + "invalid value \"" + e.getValue() + "\" for " + key + ": " + ex.getMessage());
                throw new CtlException(ExitCodes.ERROR, null);
            }
        }
    }

    /** capnslog's line prefix used by etcd's pkg/flags. */
    private static String logPrefix(char level) {
        return LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS"))
                + " " + level + " | pkg/flags: ";
    }
}
