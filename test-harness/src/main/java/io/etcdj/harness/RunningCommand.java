package io.etcdj.harness;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A command started by {@link Command#start()} that a test talks to while it runs: it types on its
 * standard input, reads its output as it comes (lines, or everything so far), sends it signals and
 * waits for its end. Both output streams are read all the time, so the command never blocks on a
 * full pipe. Closing stops it (SIGTERM, then SIGKILL for it and everything it started).
 */
public final class RunningCommand implements AutoCloseable {
    /** How long {@link #close()} lets the command end after SIGTERM before it kills it. */
    public static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(10);

    private final String label;
    private final Process process;
    private final OutputStream stdin;
    private final Capture stdout;
    private final Capture stderr;
    private int linesTaken;

    RunningCommand(String label, Process process) {
        this.label = label;
        this.process = process;
        this.stdin = process.getOutputStream();
        this.stdout = new Capture(process.getInputStream(), "stdout of " + label);
        this.stderr = new Capture(process.getErrorStream(), "stderr of " + label);
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Writes {@code text} to standard input at once (typing, at a terminal); false if the command no longer reads it. */
    public boolean type(String text) {
        try {
            stdin.write(text.getBytes(StandardCharsets.UTF_8));
            stdin.flush();
            return true;
        } catch (IOException ended) {
            return false;
        }
    }

    /** Ends standard input (end of file for a pipe). */
    public void closeStdin() {
        try {
            stdin.close();
        } catch (IOException ended) {
            // the command ended without reading what was left
        }
    }

    /** Standard output so far (the terminal's screen, under {@link Command#atTerminal()}). */
    public String stdout() {
        return new String(stdout.bytes(), StandardCharsets.UTF_8);
    }

    public byte[] stdoutBytes() {
        return stdout.bytes();
    }

    /** Standard error so far (empty when merged into standard output). */
    public String stderr() {
        return new String(stderr.bytes(), StandardCharsets.UTF_8);
    }

    /**
     * Waits until {@code condition} holds for standard output so far; false when {@code within}
     * passed first or the output ended (the command and what it started closed it) without it.
     */
    public boolean awaitStdoutBytes(Duration within, Predicate<byte[]> condition) throws InterruptedException {
        return stdout.await(within, condition);
    }

    /** {@link #awaitStdoutBytes} on the text. */
    public boolean awaitStdout(Duration within, Predicate<String> condition) throws InterruptedException {
        return stdout.await(within, b -> condition.test(new String(b, StandardCharsets.UTF_8)));
    }

    /** {@link #awaitStdout}, failing with what was printed when the condition did not come to hold. */
    public void requireStdout(String what, Duration within, Predicate<String> condition) throws InterruptedException {
        if (!awaitStdout(within, condition)) {
            throw new AssertionError(label + (process.isAlive() ? " did not print " + what + " within " + within
                    : " ended (exit " + process.exitValue() + ") without printing " + what) + "; stdout:\n" + stdout()
                    + "\nstderr:\n" + stderr());
        }
    }

    /**
     * The next {@code n} lines of standard output not yet taken, each with its newline; fails with
     * what came when they do not come within {@code within}.
     */
    public List<String> nextLines(int n, Duration within) throws InterruptedException {
        int from = linesTaken;
        requireStdout(n + " more lines", within, s -> s.split("\n", -1).length - 1 >= from + n);
        String[] all = stdout().split("\n", -1);
        List<String> lines = new ArrayList<>();
        for (int i = from; i < from + n; i++) {
            lines.add(all[i] + "\n");
        }
        linesTaken = from + n;
        return lines;
    }

    /** Sends signal {@code name} (INT, TERM, HUP, STOP, ...) to the command's own process, as kill(1) does. */
    public void signal(String name) throws IOException, InterruptedException {
        Command.Result r = Command.of("kill", "-" + name, Long.toString(process.pid())).run();
        if (r.exitCode() != 0 && process.isAlive()) {
            throw new IOException("kill -" + name + " " + process.pid() + ": " + r.output());
        }
    }

    /** Waits up to {@code within} for the command to end by itself; true if it did. */
    public boolean endsWithin(Duration within) throws InterruptedException {
        return process.waitFor(within.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The exit code, or -1 while it runs. */
    public int exitCode() {
        return process.isAlive() ? -1 : process.exitValue();
    }

    /**
     * Waits for the end and gives exit code and all the output. Fails (AssertionError, with what it
     * printed) when it does not end within {@code within}; it and its descendants are killed then.
     */
    public Command.Result finish(Duration within) throws InterruptedException {
        if (!endsWithin(within)) {
            kill();
            throw new AssertionError(label + " did not end within " + within + "; it printed:\n" + stdout() + stderr());
        }
        closeStdin();
        String out = stdout.awaitEnd();
        String err = stderr.awaitEnd();
        return new Command.Result(process.exitValue(), out, err, stdout.bytes());
    }

    /** SIGTERM, then SIGKILL for the command and everything it started when it has not ended within {@code within}. */
    public void stop(Duration within) throws InterruptedException {
        List<ProcessHandle> started = process.descendants().toList();
        process.destroy();
        if (!endsWithin(within)) {
            started.forEach(ProcessHandle::destroyForcibly);
            kill();
        }
        process.waitFor(within.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** SIGKILL for the command and everything it started. */
    public void kill() {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }

    @Override
    public void close() throws InterruptedException {
        try {
            stop(CLOSE_TIMEOUT);
        } finally {
            kill();
            closeStdin();
        }
    }

    @Override
    public String toString() {
        return label + " (pid " + process.pid() + ")";
    }

    /** One output stream, read to its end by a daemon thread into memory. */
    private static final class Capture {
        /** How long, once the command ended, its output may stay open (a descendant holding the pipe). */
        private static final long END_WAIT_MILLIS = 10_000;
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private boolean ended;
        private String failure;

        Capture(InputStream in, String name) {
            Thread reader = new Thread(() -> pump(in), name);
            reader.setDaemon(true);
            reader.start();
        }

        private void pump(InputStream stream) {
            try (InputStream in = stream) {
                byte[] buf = new byte[8192];
                for (int n; (n = in.read(buf)) >= 0; ) {
                    synchronized (this) {
                        bytes.write(buf, 0, n);
                        notifyAll();
                    }
                }
            } catch (IOException e) {
                synchronized (this) {
                    failure = e.toString();
                }
            } finally {
                synchronized (this) {
                    ended = true;
                    notifyAll();
                }
            }
        }

        synchronized byte[] bytes() {
            return bytes.toByteArray();
        }

        synchronized boolean await(Duration within, Predicate<byte[]> condition) throws InterruptedException {
            long deadline = System.nanoTime() + within.toNanos();
            while (true) {
                if (condition.test(bytes.toByteArray())) {
                    return true;
                }
                long left = deadline - System.nanoTime();
                if (ended || left <= 0) {
                    return false;
                }
                wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
            }
        }

        /** Everything, once the stream ended; what came so far with a note when it stays open. */
        synchronized String awaitEnd() throws InterruptedException {
            long deadline = System.currentTimeMillis() + END_WAIT_MILLIS;
            while (!ended && System.currentTimeMillis() < deadline) {
                wait(Math.max(1, deadline - System.currentTimeMillis()));
            }
            String text = bytes.toString(StandardCharsets.UTF_8);
            if (!ended) {
                return text + "<output still open " + END_WAIT_MILLIS / 1000 + " s after the end: a descendant holds it>";
            }
            return failure == null ? text : text + "<output not readable: " + failure + ">";
        }
    }
}
