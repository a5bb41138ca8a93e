package io.etcdj.server.proxy;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * A cobra parent command with one subcommand, as {@code etcd gateway} and {@code etcd grpc-proxy}
 * are: without "start" it prints its help (exit 0); an unknown flag is an error (exit 1).
 */
public final class CommandGroup {
    private final String path;
    private final String shortDescription;
    private final Subcommand start;

    public CommandGroup(String path, String shortDescription, Subcommand start) {
        this.path = path;
        this.shortDescription = shortDescription;
        this.start = start;
    }

    public int execute(List<String> args, PrintStream out, PrintStream err) {
        int at = commandWord(args);
        if (at >= 0 && args.get(at).equals("start")) {
            List<String> rest = new ArrayList<>(args);
            rest.remove(at);
            return start.execute(rest, out, err);
        }
        for (String a : args) {
            if (a.startsWith("-") && !a.equals("-h") && !a.equals("--help")) {
                String msg = a.startsWith("--")
                        ? "unknown flag: " + (a.contains("=") ? a.substring(0, a.indexOf('=')) : a)
                        : "unknown shorthand flag: '" + a.charAt(1) + "' in " + a;
                err.print("Error: " + msg + "\n" + usage() + "\n" + msg);
                err.flush();
                return 1;
            }
        }
        out.print(shortDescription + "\n\n" + usage());
        out.flush();
        return 0;
    }

    /**
     * Where the first command word stands, as cobra's Find looks for it (its stripFlags; the group
     * has no flags while cobra searches, not even help): "start" may follow flags
     * ({@code etcd gateway --endpoints=x start}), and a flag without "=" takes the next word as its
     * value ({@code etcd gateway -h start} shows the group's help); -1 when none.
     * etcdctl's search is the general form of this one (cli-support's CommandFinder), which the
     * server does not depend on.
     */
    static int commandWord(List<String> args) {
        for (int i = 0; i < args.size(); i++) {
            String s = args.get(i);
            if (s.equals("--")) {
                return -1;
            }
            boolean valued = !s.contains("=") && (s.startsWith("--") || s.length() == 2 && s.charAt(0) == '-');
            if (valued) {
                if (i + 1 >= args.size() - 1) {
                    return -1;
                }
                i++;
            } else if (!s.isEmpty() && !s.startsWith("-")) {
                return i;
            }
        }
        return -1;
    }

    private String usage() {
        String name = path.substring(path.lastIndexOf(' ') + 1);
        return "Usage:\n  " + path + " [command]\n\nAvailable Commands:\n  start       " + start.shortDescription()
                + "\n\nFlags:\n  -h, --help   help for " + name + "\n\nUse \"" + path
                + " [command] --help\" for more information about a command.\n";
    }
}
