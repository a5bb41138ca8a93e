package io.etcdj.server.proxy;

import java.io.PrintStream;
import java.util.List;

/**
 * One runnable leaf command ({@code etcd gateway start}, {@code etcd grpc-proxy start}): its
 * flags, its one-line description, and cobra's help and error layout around them.
 */
public abstract class Subcommand {
    private final String path;
    private final String shortDescription;

    protected Subcommand(String path, String shortDescription) {
        this.path = path;
        this.shortDescription = shortDescription;
    }

    /** Declares the command's flags. */
    protected abstract Flags flags();

    /** Runs the command with parsed flags; returns the exit code (after the command stopped). */
    protected abstract int run(Flags flags, PrintStream out, PrintStream err);

    public String shortDescription() {
        return shortDescription;
    }

    /** Parses and runs; usage errors are reported as cobra and etcd's main report them, exit code 1. */
    public final int execute(List<String> args, PrintStream out, PrintStream err) {
        Flags flags = flags();
        try {
            flags.parse(args);
        } catch (UsageException e) {
            err.print("Error: " + e.getMessage() + "\n" + usage(flags) + "\n" + e.getMessage());
            err.flush();
            return 1;
        }
        if (flags.help()) {
            out.print(shortDescription + "\n\n" + usage(flags));
            out.flush();
            return 0;
        }
        return run(flags, out, err);
    }

    private String usage(Flags flags) {
        String leaf = path.substring(path.lastIndexOf(' ') + 1);
        return "Usage:\n  " + path + " [flags]\n\nFlags:\n" + flags.usages(leaf);
    }
}
