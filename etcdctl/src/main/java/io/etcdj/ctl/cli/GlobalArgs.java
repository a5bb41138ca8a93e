package io.etcdj.ctl.cli;

import io.etcdj.cli.CliException;
import io.etcdj.cli.ExitCodes;
import io.etcdj.cli.GlobalFlag;
import io.etcdj.cli.PersistentFlags;
import java.io.PrintStream;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Takes etcdctl's global flags out of the argument list (they may appear anywhere before {@code --}; see
 * {@link PersistentFlags}), then applies ETCDCTL_* environment variables for flags not given, as etcd's
 * pkg/flags does.
 */
public final class GlobalArgs {

    /** ETCDCTL_* names that are not global flags but are read elsewhere, so they draw no warning. */
    private static final Set<String> RESERVED_ENV = Set.of("ETCDCTL_API", "ETCDCTL_WATCH_KEY",
            "ETCDCTL_WATCH_RANGE_END");

    private final GlobalOptions options = new GlobalOptions();
    private final PersistentFlags flags;

    private GlobalArgs(String[] args) {
        this.flags = PersistentFlags.split(args, GlobalOptions.FLAGS, options::set);
    }

    /** Result of splitting: the options, the arguments left for the command, and the first flag error. */
    public GlobalOptions options() {
        return options;
    }

    public List<String> rest() {
        return flags.rest();
    }

    /** The global-flag words as typed (the shell repeats them before every line). */
    public List<String> consumed() {
        return flags.consumed();
    }

    /** pflag's text for the first bad global flag, or null. */
    public String flagError() {
        return flags.error();
    }

    public static GlobalArgs split(String[] args) {
        return new GlobalArgs(args);
    }

    /**
     * Applies ETCDCTL_* variables for flags not given on the command line. Unknown variables draw a
     * warning; a variable that shadows a given flag is fatal, as in etcd.
     *
     * @throws CliException for a conflicting or unparsable variable
     */
    public void applyEnvironment(Map<String, String> env, PrintStream err) {
        for (Map.Entry<String, String> e : new TreeMap<>(env).entrySet()) {
            String key = e.getKey();
            if (!key.startsWith("ETCDCTL_") || RESERVED_ENV.contains(key)) {
                continue;
            }
            GlobalFlag flag = null;
            for (GlobalFlag f : GlobalOptions.FLAGS) {
                if (f.envName("ETCDCTL_").equals(key)) {
                    flag = f;
                }
            }
            if (flag == null) {
                err.println(logPrefix('W') + "unrecognized environment variable " + key + "=" + e.getValue());
                continue;
            }
            if (flags.given().contains(flag.name())) {
                err.println(logPrefix('C') + "conflicting environment variable \"" + key
                        + "\" is shadowed by corresponding command-line flag (either unset environment variable or disable flag)");
                throw new CliException(ExitCodes.ERROR, null);
            }
            try {
                options.set(flag, e.getValue());
            } catch (IllegalArgumentException ex) {
                err.println(logPrefix('C') + "invalid value \"" + e.getValue() + "\" for " + key + ": " + ex.getMessage());
                throw new CliException(ExitCodes.ERROR, null);
            }
        }
    }

    /** capnslog's line prefix used by etcd's pkg/flags. */
    private static String logPrefix(char level) {
        return LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS"))
                + " " + level + " | pkg/flags: ";
    }
}
