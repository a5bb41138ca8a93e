package io.etcdj.ctl.warm;

import io.etcdj.ctl.cli.CtlCommand;
import io.etcdj.ctl.cli.CtlContext;
import io.etcdj.ctl.cli.GlobalOptions;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * Which calls the server hands back to run in a process of their own, so that they behave exactly
 * as a direct run: commands that start a child which must inherit the caller's stdio and signals
 * (lock and watch with a command), commands that talk to a terminal through the console (the shell,
 * password prompts) when the caller has one, {@code --debug} (it reconfigures JVM-wide logging), and
 * etcdutl command lines naming relative paths (etcdutl's code opens them against the process's
 * working directory, which a shared server cannot have per call), and etcdutl's snapshot restore at
 * a terminal (its progress line needs the process's own stderr).
 */
final class Placement {

    private static final Set<String> ETCDUTL_WORDS = Set.of("snapshot", "restore", "save", "status", "defrag",
            "hashkv", "version", "help", "fields", "json", "protobuf", "simple", "table");

    private Placement() {
    }

    static boolean etcdctlRunsHere(CtlCommand command, CtlContext ctx, boolean terminal) {
        GlobalOptions o = ctx.options();
        if (o.debug() || command.needsOwnProcess(terminal)) {
            return false;
        }
        return !(terminal && promptsForPassword(o));
    }

    /** etcdctl asks for the password of {@code --user name} without one (see Credentials). */
    private static boolean promptsForPassword(GlobalOptions o) {
        String user = o.user();
        String password = o.password();
        return user != null && !user.isEmpty() && !user.contains(":") && (password == null || password.isEmpty());
    }

    static boolean etcdutlRunsHere(List<String> args, boolean terminal) {
        if (terminal && args.contains("restore")) {
            return false;
        }
        return etcdutlRunsHere(args);
    }

    static boolean etcdutlRunsHere(List<String> args) {
        boolean restore = false;
        boolean dataDir = false;
        for (String a : args) {
            if (a.equals("restore")) {
                restore = true;
            }
            if (a.startsWith("-")) {
                int eq = a.indexOf('=');
                if (a.startsWith("--data-dir")) {
                    dataDir = true;
                }
                if (eq > 0 && (a.startsWith("--data-dir=") || a.startsWith("--wal-dir="))
                        && !Path.of(a.substring(eq + 1)).isAbsolute()) {
                    return false;
                }
                continue;
            }
            // Any other word may be a path (a flag's value or a file); a relative one decides.
            if (!ETCDUTL_WORDS.contains(a) && !Path.of(a).isAbsolute()) {
                return false;
            }
        }
        // restore without --data-dir writes to <name>.etcd in the working directory
        return !(restore && !dataDir);
    }
}
