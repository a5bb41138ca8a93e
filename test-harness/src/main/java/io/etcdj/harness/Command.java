package io.etcdj.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * A command a test runs to its end (etcdctl, openssl, a tool, a script): its exit code and output,
 * with the environment, working directory and standard input the test gives. The process and
 * everything it started are killed when the command does not end in time, or when the test is
 * interrupted: no test leaves a process behind. A command the test talks to while it runs (types
 * at, reads line by line, signals) is {@link #start()}ed; servers are {@link LoggedProcess}es. Tests
 * start processes only through these classes (ProcessesOnlyThroughTheHarnessTest).
 */
public final class Command {
    /** How long a command may run unless the test says otherwise. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

    private List<String> argv;
    private final Map<String, String> env = new LinkedHashMap<>();
    private final List<Predicate<String>> removed = new ArrayList<>();
    private Path dir;
    private byte[] stdin;
    private boolean stdinStaysOpen;
    private boolean mergeStderr;
    private Duration timeout = DEFAULT_TIMEOUT;

    /** What the command did: exit code, standard output and standard error (empty when merged). */
    public record Result(int exitCode, String stdout, String stderr, byte[] stdoutBytes) {
        public Result(int exitCode, String stdout, String stderr) {
            this(exitCode, stdout, stderr, stdout.getBytes(StandardCharsets.UTF_8));
        }

        /** Standard output followed by standard error. */
        public String output() {
            return stdout + stderr;
        }

        @Override
        public String toString() {
            return "exit " + exitCode + "\n--- stdout\n" + stdout + "--- stderr\n" + stderr;
        }
    }

    private Command(List<String> argv) {
        this.argv = List.copyOf(argv);
    }

    public static Command of(List<String> argv) {
        return new Command(argv);
    }

    public static Command of(String... argv) {
        return new Command(List.of(argv));
    }

    /** Sets a variable on top of the test's environment. */
    public Command env(String name, String value) {
        env.put(name, value);
        return this;
    }

    public Command env(Map<String, String> variables) {
        env.putAll(variables);
        return this;
    }

    /** Removes the test's variables starting with {@code prefix} (ETCDCTL_ settings of the machine, say). */
    public Command withoutEnv(String prefix) {
        return withoutEnvIf(name -> name.startsWith(prefix));
    }

    /** Removes the test's variables whose names match ({@code name -> true}: a command with only the variables given). */
    public Command withoutEnvIf(Predicate<String> name) {
        removed.add(name);
        return this;
    }

    /** Runs in {@code directory} (null: the test's). */
    public Command dir(Path directory) {
        this.dir = directory;
        return this;
    }

    /** Feeds {@code input} on standard input, then closes it (without it, standard input is closed at once). */
    public Command stdin(String input) {
        this.stdin = input.getBytes(StandardCharsets.UTF_8);
        return this;
    }

    /**
     * Standard input stays open after the input until the command ended by itself (a command that
     * reads to end of file would wait): what a pipe from a program that is still running gives.
     */
    public Command stdinStaysOpen() {
        this.stdinStaysOpen = true;
        return this;
    }

    /**
     * Runs the command at a pseudo-terminal, its controlling terminal: util-linux {@code script}
     * runs it (through {@code sh -c}) with stdin, stdout and stderr on the terminal, so what the
     * command prints is the screen, in standard output, with the terminal's {@code \r\n}; what is
     * typed ({@link RunningCommand#type}) goes through the terminal's line discipline. script's exit
     * code is the command's.
     */
    public Command atTerminal() {
        this.argv = atTerminal(shellLine(argv)).argv;
        this.mergeStderr = true;
        return this;
    }

    /** A command line for sh, as it is ({@code exec sh}, a pipeline, redirections), run at a pseudo-terminal as {@link #atTerminal()}. */
    public static Command atTerminal(String shellLine) {
        return of("script", "-qfec", shellLine, "/dev/null").mergeStderr();
    }

    /** Standard error goes into standard output, interleaved as written. */
    public Command mergeStderr() {
        this.mergeStderr = true;
        return this;
    }

    public Command timeout(Duration within) {
        this.timeout = within;
        return this;
    }

    /**
     * Runs the command to its end. Fails (AssertionError, with what it printed) when it runs longer
     * than the timeout; the process and its descendants are killed then, and on any other way out.
     */
    public Result run() throws IOException, InterruptedException {
        try (RunningCommand running = start()) {
            if (!stdinStaysOpen) {
                running.closeStdin();
            }
            return running.finish(timeout);
        }
    }

    /**
     * Starts the command and returns at once, its standard input open for {@link RunningCommand#type}
     * (the input given with {@link #stdin} already on it). Close the result: it stops the command.
     */
    public RunningCommand start() throws IOException {
        ProcessBuilder pb = new ProcessBuilder(argv).redirectErrorStream(mergeStderr);
        if (dir != null) {
            pb.directory(dir.toFile());
        }
        pb.environment().keySet().removeIf(k -> removed.stream().anyMatch(r -> r.test(k)));
        pb.environment().putAll(env);
        RunningCommand running = new RunningCommand(String.join(" ", argv), pb.start());
        if (stdin != null) {
            running.type(new String(stdin, StandardCharsets.UTF_8));
        }
        return running;
    }

    /** A word for sh: as it is when plain, single-quoted otherwise. */
    public static String shellQuote(String word) {
        if (!word.isEmpty() && word.matches("[A-Za-z0-9_./:=@%+,-]+")) {
            return word;
        }
        return "'" + word.replace("'", "'\\''") + "'";
    }

    /** {@code words} as one sh command line. */
    public static String shellLine(List<String> words) {
        return String.join(" ", words.stream().map(Command::shellQuote).toList());
    }
}
