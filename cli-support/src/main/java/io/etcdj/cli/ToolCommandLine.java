package io.etcdj.cli;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.function.Function;
import picocli.CommandLine;

/**
 * The picocli set-up every tool of ours shares (cluster-launcher, etcd-certs, benchmark, etcdutl): the
 * command line is built once here, writes to the streams it is given, answers {@code --help} and
 * {@code --version} as the root command declares them, reports a bad command line as picocli does
 * (the message and the usage on stderr, exit {@link ExitCodes#USAGE}) and a failed command as one
 * line, {@code <prefix><message>}, with the exit code the tool's {@link CliException} carries, never
 * a stack trace. A tool says how its own exceptions read and exit ({@link Builder#failures}); every
 * other exception reads as {@link #describe}.
 *
 * <p>etcdutl words its parse errors as pflag and cobra do ({@link Builder#parseErrors}). etcdctl
 * keeps its own loop (prefix matching, cobra's error-usage-error layout), but reports failures
 * through the same {@link ErrorReporter}.
 */
public final class ToolCommandLine {

    private final CommandLine commandLine;

    private ToolCommandLine(CommandLine commandLine) {
        this.commandLine = commandLine;
    }

    /** Starts the set-up of a tool whose root command is {@code root} (a picocli command object). */
    public static Builder of(Object root) {
        return new Builder(new CommandLine(root));
    }

    /** Starts the set-up of a tool whose command tree was built by hand (etcdutl's, from command instances). */
    public static Builder of(CommandLine commandLine) {
        return new Builder(commandLine);
    }

    /** Runs one command line; returns its exit code, with everything written flushed. */
    public int execute(String... args) {
        try {
            return commandLine.execute(args);
        } finally {
            commandLine.getOut().flush();
            commandLine.getErr().flush();
        }
    }

    /**
     * An exception no tool expects, on one line: its type and its message ("IOException: /x: No such
     * file or directory"), so a user can report it; line breaks become spaces.
     */
    public static String describe(Throwable e) {
        if (e instanceof UncheckedIOException io && io.getCause() != null) {
            return describe(io.getCause());
        }
        String text = e.getMessage();
        return e.getClass().getSimpleName() + (text == null ? "" : ": " + text.replace('\n', ' '));
    }

    /** How one tool's command line is set up. */
    public static final class Builder {
        private final CommandLine commandLine;
        private String prefix = "Error: ";
        private Function<Exception, CliException> failures = e -> null;
        private Function<CommandLine.ParameterException, CliException> parseErrors;

        private Builder(CommandLine commandLine) {
            this.commandLine = commandLine;
        }

        /** Standard output and error; flushed after each command. */
        public Builder streams(PrintWriter out, PrintWriter err) {
            commandLine.setOut(out);
            commandLine.setErr(err);
            return this;
        }

        /** {@link #streams(PrintWriter, PrintWriter)} over byte streams, in UTF-8. */
        public Builder streams(PrintStream out, PrintStream err) {
            return streams(new PrintWriter(out, true, StandardCharsets.UTF_8),
                    new PrintWriter(err, true, StandardCharsets.UTF_8));
        }

        /** What a failure line starts with: {@code "Error: "} unless the tool prints otherwise. */
        public Builder errorPrefix(String errorPrefix) {
            this.prefix = errorPrefix;
            return this;
        }

        /**
         * The tool's own exceptions as the {@link CliException} (message and exit code) a user
         * sees; null for an exception the tool does not know, which then reads as {@link #describe}
         * with exit {@link ExitCodes#ERROR}.
         */
        public Builder failures(Function<Exception, CliException> mapping) {
            this.failures = mapping;
            return this;
        }

        /**
         * A bad command line in the tool's words, printed like a failure ({@code <prefix><message>})
         * with the failure's exit code, instead of picocli's message, usage and exit 2 (etcdutl:
         * pflag's and cobra's texts, exit 1).
         */
        public Builder parseErrors(Function<CommandLine.ParameterException, CliException> wording) {
            this.parseErrors = wording;
            return this;
        }

        /** Options typed long, int and boolean parse as Go's strconv does, with its texts. */
        public Builder goValues() {
            GoConverters.register(commandLine);
            return this;
        }

        public ToolCommandLine build() {
            // picocli's own words for a bad command line (the message, then the usage), our exit code
            CommandLine.IParameterExceptionHandler usage = commandLine.getParameterExceptionHandler();
            commandLine.setParameterExceptionHandler((e, args) -> {
                if (parseErrors != null) {
                    return ErrorReporter.report(parseErrors.apply(e), prefix, commandLine.getErr());
                }
                usage.handleParseException(e, args);
                return ExitCodes.USAGE;
            });
            commandLine.setExecutionExceptionHandler((e, line, parsed) -> {
                CliException failure = e instanceof CliException c ? c : failures.apply(e);
                if (failure == null) {
                    failure = new CliException(ExitCodes.ERROR, describe(e), e);
                }
                return ErrorReporter.report(failure, prefix, line.getErr());
            });
            return new ToolCommandLine(commandLine);
        }
    }
}
