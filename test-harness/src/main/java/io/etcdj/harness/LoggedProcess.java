package io.etcdj.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One operating-system process whose stdout and stderr go (appended) to a log file: started without
 * the caller's {@code ETCD*} variables, waited for by a log line and an open port, stopped by its pid
 * (SIGTERM, then SIGKILL) or killed with SIGKILL. Closing stops it.
 */
public final class LoggedProcess implements AutoCloseable {
    /** How long a stop waits for the process to exit before it kills it. */
    public static final Duration STOP_TIMEOUT = Duration.ofSeconds(20);

    private final String label;
    private final Process process;
    private final Path logFile;
    private final long logOffset;

    private LoggedProcess(String label, Process process, Path logFile, long logOffset) {
        this.label = label;
        this.process = process;
        this.logFile = logFile;
        this.logOffset = logOffset;
    }

    /**
     * Starts {@code command} in {@code workingDir} (null: the test's), with {@code env} on top of the
     * test's environment minus every {@code ETCD*} variable, appending its output to {@code logFile}.
     */
    public static LoggedProcess start(String label, List<String> command, Path logFile, Path workingDir,
            Map<String, String> env) throws IOException {
        long offset = Files.exists(logFile) ? Files.size(logFile) : 0;
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()));
        if (workingDir != null) {
            pb.directory(workingDir.toFile());
        }
        pb.environment().keySet().removeIf(k -> k.startsWith("ETCD"));
        pb.environment().putAll(env);
        return new LoggedProcess(label, pb.start(), logFile, offset);
    }

    /**
     * Waits until the process logged {@code line} (null: any) since it started and {@code port} on
     * 127.0.0.1 accepts connections; fails at once, with the log tail, when the process exits.
     */
    public void awaitLogLineAndPort(String line, int port, Duration within) throws InterruptedException {
        Eventually.until(label + " ready (" + (line != null ? "logs \"" + line + "\" and " : "") + "listens on "
                + port + ")", within, Duration.ofMillis(50), () -> {
                    if (!process.isAlive()) {
                        throw new Eventually.GiveUp(label + " exited with " + process.exitValue()
                                + " before it was ready; log:\n" + logTail(60));
                    }
                    return (line == null || logSinceStart().contains(line)) && accepts(port);
                });
    }

    /** Whether something accepts TCP connections on {@code port} of 127.0.0.1. */
    public static boolean accepts(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** The exit code, or -1 while it runs. */
    public int exitCode() {
        return process.isAlive() ? -1 : process.exitValue();
    }

    /** Waits up to {@code within} for the process to exit on its own; true if it did. */
    public boolean waitFor(Duration within) throws InterruptedException {
        return process.waitFor(within.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** SIGTERM, then SIGKILL if it has not exited within {@code within}. */
    public void stop(Duration within) throws InterruptedException {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        if (!process.waitFor(within.toMillis(), TimeUnit.MILLISECONDS)) {
            kill9();
        }
    }

    /** SIGKILL: no shutdown hook runs, nothing is flushed. */
    public void kill9() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    }

    public Path logFile() {
        return logFile;
    }

    /** What the process logged since this start (the file may hold earlier runs too). */
    public String logSinceStart() {
        try {
            if (!Files.exists(logFile)) {
                return "";
            }
            byte[] all = Files.readAllBytes(logFile);
            int from = (int) Math.min(logOffset, all.length);
            return new String(all, from, all.length - from, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The last {@code lines} lines of the whole log file. */
    public String logTail(int lines) {
        return tail(logFile, lines);
    }

    /** The last {@code lines} lines of {@code file}, or a note that there is none. */
    public static String tail(Path file, int lines) {
        try {
            if (file == null || !Files.exists(file)) {
                return "(no log)";
            }
            List<String> all = Files.readAllLines(file, StandardCharsets.UTF_8);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException | UncheckedIOException e) {
            return "(log unreadable: " + e + ")";
        }
    }

    /** Stops the process (SIGTERM, SIGKILL after 5 s); keeps the log. */
    @Override
    public void close() {
        try {
            stop(Duration.ofSeconds(5));
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return label + " (pid " + process.pid() + ")";
    }
}
