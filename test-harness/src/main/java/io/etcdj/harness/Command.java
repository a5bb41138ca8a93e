package io.etcdj.harness;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A command a test runs to its end (etcdctl, openssl, a tool, a script): its exit code and output,
 * with the environment, working directory and standard input the test gives. The process and
 * everything it started are killed when the command does not end in time, or when the test is
 * interrupted: no test leaves a process behind. Long-running processes are {@link LoggedProcess}.
 */
public final class Command {
    /** How long a command may run unless the test says otherwise. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

    private final List<String> argv;
    private final Map<String, String> env = new LinkedHashMap<>();
    private final List<String> removedPrefixes = new ArrayList<>();
    private Path dir;
    private byte[] stdin;
    private boolean mergeStderr;
    private Duration timeout = DEFAULT_TIMEOUT;

    /** What the command did: exit code, standard output and standard error (empty when merged). */
    public record Result(int exitCode, String stdout, String stderr) {
        /** Standard output followed by standard error. */
        public String output() {
            return stdout + stderr;
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
        removedPrefixes.add(prefix);
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
        ProcessBuilder pb = new ProcessBuilder(argv).redirectErrorStream(mergeStderr);
        if (dir != null) {
            pb.directory(dir.toFile());
        }
        pb.environment().keySet().removeIf(k -> removedPrefixes.stream().anyMatch(k::startsWith));
        pb.environment().putAll(env);
        Process p = pb.start();
        try {
            CompletableFuture<String> out = readAll(p.getInputStream());
            CompletableFuture<String> err = mergeStderr ? CompletableFuture.completedFuture("") : readAll(p.getErrorStream());
            try (OutputStream in = p.getOutputStream()) {
                if (stdin != null) {
                    in.write(stdin);
                }
            } catch (IOException e) {
                // the command ended without reading its input: its exit code says what happened
            }
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                kill(p);
                throw new AssertionError(String.join(" ", argv) + " did not end within " + timeout + "; it printed:\n"
                        + out.getNow("") + err.getNow(""));
            }
            return new Result(p.exitValue(), join(out), join(err));
        } finally {
            kill(p);
        }
    }

    private static void kill(Process p) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
    }

    private static CompletableFuture<String> readAll(InputStream stream) {
        return CompletableFuture.supplyAsync(() -> {
            try (InputStream in = stream) {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    private static String join(CompletableFuture<String> f) throws InterruptedException {
        try {
            return f.get(10, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            // a descendant still holds the pipe open: what was read so far is lost, say so
            return "<output not readable: " + e + ">";
        }
    }
}
