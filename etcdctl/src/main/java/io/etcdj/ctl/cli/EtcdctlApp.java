package io.etcdj.ctl.cli;

import io.etcdj.cli.CliException;
import io.etcdj.cli.CommandFinder;
import io.etcdj.cli.ErrorReporter;
import io.etcdj.cli.ExitCodes;
import io.etcdj.cli.GoConverters;
import io.etcdj.cli.GoValues;
import io.etcdj.cli.PflagErrors;
import io.etcdj.ctl.RootCommand;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Runs one etcdctl invocation: global flags and environment, help, pflag-style errors, the command,
 * and the exit code. Reusable in-process (tests, the shell) because it never calls System.exit.
 */
public final class EtcdctlApp {

    private final Function<String, CommandLine> treeFactory;
    private final Placement placement;

    /** Decides, once a command line is parsed, whether its command may run in this process. */
    @FunctionalInterface
    public interface Placement {
        boolean runsHere(CtlCommand command, CtlContext ctx);
    }

    /** cobra's command search over the picocli tree (null stands for the root in {@link #words} before it is built). */
    private static final CommandFinder<CommandLine> FINDER = new CommandFinder<>(new CommandFinder.Model<>() {
        @Override
        public CommandLine subcommand(CommandLine command, String word) {
            return resolve(command, word);
        }

        @Override
        public boolean takesNoValue(CommandLine command, String flag, boolean shorthand) {
            // help is not among them: cobra adds its flag only to the command found
            OptionSpec o = command == null ? null : command.getCommandSpec().findOption((shorthand ? "-" : "--") + flag);
            return o != null && (o.type() == boolean.class || o.type() == Boolean.class);
        }
    });

    /**
     * @param treeFactory builds a fresh command tree per invocation; given the first argument, it may
     *                    register only that command (null or an unknown name asks for the whole tree)
     */
    public EtcdctlApp(Function<String, CommandLine> treeFactory) {
        this(treeFactory, (command, ctx) -> true);
    }

    /**
     * @param placement asked before a command runs; when it says no, {@link OwnProcessRequired} is
     *                  thrown instead (the warm server then hands the command line back to its caller)
     */
    public EtcdctlApp(Function<String, CommandLine> treeFactory, Placement placement) {
        this.treeFactory = treeFactory;
        this.placement = placement;
    }

    public int run(String[] args, PrintStream out, PrintStream err, InputStream in, Map<String, String> env) {
        return run(args, out, err, in, env, Path.of(""));
    }

    /**
     * Runs with relative file names resolved against {@code workDir} (the caller's directory when the
     * warm server runs the command; the empty path means the process's own).
     */
    public int run(String[] args, PrintStream out, PrintStream err, InputStream in, Map<String, String> env,
            Path workDir) {
        GlobalArgs globals = GlobalArgs.split(args);
        try (CtlContext ctx = new CtlContext(globals.options(), out, err, in, env, workDir)) {
            try {
                globals.applyEnvironment(env, err);
            } catch (CliException e) {
                return ErrorReporter.report(e, err);
            }
            return run(globals, ctx);
        }
    }

    /** Runs with an existing context (the shell keeps one client across lines). */
    public int run(GlobalArgs globals, CtlContext ctx) {
        PrintStream err = ctx.err();
        List<String> rest = new ArrayList<>(globals.rest());
        List<String> rootWords = FINDER.words(null, rest);
        CommandLine root = newCommandLine(rootWords.isEmpty() ? null : rootWords.get(0));
        if (!rootWords.isEmpty() && rootWords.get(0).equals("help")) {
            return help(root, rootWords.subList(1, rootWords.size()), ctx);
        }
        CommandFinder.Found<CommandLine> found = FINDER.find(root, rest);
        CommandLine leaf = found.command();
        List<String> commandArgs = found.args();
        if (globals.flagError() != null) {
            return flagError(leaf, globals.flagError(), ctx);
        }
        if (wantsHelp(commandArgs)) {
            ctx.out().print(UsageRenderer.render(leaf.getCommandSpec()));
            return ExitCodes.SUCCESS;
        }
        if (!leaf.getSubcommands().isEmpty()) {
            List<String> words = FINDER.words(leaf, commandArgs);
            if (leaf == root && !words.isEmpty()) {
                String msg = PflagErrors.unknownCommand(words.get(0), "etcdctl") + suggestions(root, words.get(0));
                err.println("Error: " + msg);
                err.println("Run 'etcdctl --help' for usage.");
                err.println("Error: " + msg);
                return ExitCodes.ERROR;
            }
            // a command with subcommands has no flags of its own but help: any other is unknown
            String flag = firstFlag(commandArgs);
            if (flag != null) {
                return flagError(leaf, PflagErrors.unknownFlag(flag), ctx);
            }
            ctx.out().print(UsageRenderer.render(leaf.getCommandSpec()));
            return ExitCodes.SUCCESS;
        }
        List<String> normalized;
        try {
            normalized = normalizeBooleans(leaf.getCommandSpec(), commandArgs);
        } catch (FlagException e) {
            return flagError(leaf, e.getMessage(), ctx);
        }
        // the command path with names in full: an unambiguous prefix ("mem li") stands for the command
        List<String> full = new ArrayList<>();
        for (CommandLine c = leaf; c != root; c = c.getParent()) {
            full.add(0, c.getCommandName());
        }
        full.addAll(normalized);
        try {
            root.parseArgs(full.toArray(new String[0]));
        } catch (CommandLine.ParameterException e) {
            return flagError(leaf, PflagErrors.describe(e), ctx);
        }
        if (globals.options().debug()) {
            DebugLogging.enable(err);
        } else {
            DebugLogging.quiet();
        }
        CtlCommand command = (CtlCommand) leaf.getCommand();
        command.context(ctx);
        ctx.commandArgs(commandArgs);
        ctx.globalArgs(globals.consumed());
        if (!placement.runsHere(command, ctx)) {
            throw new OwnProcessRequired();
        }
        Interruption.commandKnown(command.takesInterrupt());
        try {
            return command.call();
        } catch (CliException e) {
            return e.showsUsage() ? flagError(leaf, e.getMessage(), ctx) : ErrorReporter.report(e, err);
        } catch (RuntimeException e) {
            return ErrorReporter.report(e, err);
        }
    }

    /** The first flag of {@code args} before {@code --}, or null. */
    private static String firstFlag(List<String> args) {
        for (String a : args) {
            if (a.equals("--")) {
                return null;
            }
            if (a.startsWith("-") && !a.equals("-")) {
                return a;
            }
        }
        return null;
    }

    /**
     * The subcommand {@code token} names, as cobra finds it with etcdctl's prefix matching: the
     * exact name or alias, else the only subcommand whose name or alias starts with it (an
     * ambiguous prefix finds nothing).
     */
    static CommandLine resolve(CommandLine parent, String token) {
        CommandLine exact = parent.getSubcommands().get(token);
        if (exact != null || token.isEmpty() || token.startsWith("-")) {
            return exact;
        }
        CommandLine found = null;
        for (Map.Entry<String, CommandLine> e : parent.getSubcommands().entrySet()) {
            if (e.getKey().startsWith(token)) {
                if (found != null && found != e.getValue()) {
                    return null;
                }
                found = e.getValue();
            }
        }
        return found;
    }

    /**
     * Cobra's "Did you mean this?" block for an unknown command: the commands within two edits of
     * it (ignoring case) or starting with it, in etcdctl's registration order; empty when none.
     */
    static String suggestions(CommandLine root, String typed) {
        StringBuilder sb = new StringBuilder();
        for (String name : RootCommand.SUGGESTION_ORDER) {
            if (!root.getSubcommands().containsKey(name)) {
                continue;
            }
            if (levenshtein(typed.toLowerCase(), name.toLowerCase()) <= 2 || name.toLowerCase().startsWith(typed.toLowerCase())) {
                sb.append("\t").append(name).append('\n');
            }
        }
        return sb.length() == 0 ? "" : "\n\nDid you mean this?\n" + sb;
    }

    static int levenshtein(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }

    private CommandLine newCommandLine(String first) {
        CommandLine cl = treeFactory.apply(first);
        GoConverters.register(cl);
        cl.setUnmatchedArgumentsAllowed(false);
        cl.setPosixClusteredShortOptionsAllowed(false);
        cl.setEndOfOptionsDelimiter("--");
        return cl;
    }

    private int help(CommandLine root, List<String> path, CtlContext ctx) {
        CommandLine target = root;
        for (String p : path) {
            CommandLine sub = resolve(target, p);
            if (sub == null) {
                ctx.out().println("Unknown help topic " + path + "\n");
                ctx.out().print(UsageRenderer.render(root.getCommandSpec()));
                return ExitCodes.SUCCESS;
            }
            target = sub;
        }
        ctx.out().print(UsageRenderer.render(target.getCommandSpec()));
        return ExitCodes.SUCCESS;
    }

    private static boolean wantsHelp(List<String> args) {
        for (String a : args) {
            if (a.equals("--")) {
                return false;
            }
            if (a.equals("-h") || a.equals("--help")) {
                return true;
            }
            // a bool shorthand takes "=value" too (pflag: -h=true, --help=1)
            if (a.startsWith("-h=") || a.startsWith("--help=")) {
                try {
                    if (GoValues.parseBool(a.substring(a.indexOf('=') + 1))) {
                        return true;
                    }
                } catch (IllegalArgumentException notABool) {
                    // left for the flag parser's error
                }
            }
        }
        return false;
    }

    /** cobra prints the error, the command's usage on stdout, then etcdctl prints the error again. */
    private static int flagError(CommandLine leaf, String message, CtlContext ctx) {
        ctx.err().println("Error: " + message);
        ctx.out().print(UsageRenderer.render(leaf.getCommandSpec()));
        ctx.err().println();
        ctx.err().println("Error: " + message);
        return ExitCodes.ERROR;
    }

    /**
     * pflag booleans take a value only as {@code --flag=value}; rewriting bare flags to
     * {@code --flag=true} stops picocli from ever eating the next argument as the flag's value.
     */
    private static List<String> normalizeBooleans(CommandSpec spec, List<String> args) {
        List<String> out = new ArrayList<>();
        boolean literal = false;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (literal || !a.startsWith("-") || a.equals("-")) {
                out.add(a);
                continue;
            }
            if (a.equals("--")) {
                literal = true;
                out.add(a);
                continue;
            }
            int eq = a.indexOf('=');
            String name = eq < 0 ? a : a.substring(0, eq);
            OptionSpec o = spec.findOption(name);
            if (o == null && !a.startsWith("--") && a.length() > 2) {
                o = spec.findOption(a.substring(0, 2));
                name = a.substring(0, 2);
            }
            if (o == null) {
                out.add(a);
                continue;
            }
            boolean isBool = o.type() == boolean.class || o.type() == Boolean.class;
            if (!isBool) {
                out.add(a);
                if (eq < 0 && a.length() == name.length() && i + 1 < args.size()) {
                    out.add(args.get(++i));
                }
                continue;
            }
            String value = eq < 0 ? "true" : a.substring(eq + 1);
            try {
                out.add(name + "=" + GoValues.parseBool(value));
            } catch (IllegalArgumentException e) {
                throw new FlagException(PflagErrors.invalidArgument(value, PflagErrors.shownName(o), e.getMessage()));
            }
        }
        return out;
    }

    /** A flag parse error found before picocli runs. */
    private static final class FlagException extends RuntimeException {
        FlagException(String message) {
            super(message);
        }
    }
}
