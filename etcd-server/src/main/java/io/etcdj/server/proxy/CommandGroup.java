package io.etcdj.server.proxy;

import java.io.PrintStream;
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
        if (!args.isEmpty() && args.get(0).equals("start")) {
            return start.execute(args.subList(1, args.size()), out, err);
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

    private String usage() {
        String name = path.substring(path.lastIndexOf(' ') + 1);
        return "Usage:\n  " + path + " [command]\n\nAvailable Commands:\n  start       " + start.shortDescription()
                + "\n\nFlags:\n  -h, --help   help for " + name + "\n\nUse \"" + path
                + " [command] --help\" for more information about a command.\n";
    }
}
