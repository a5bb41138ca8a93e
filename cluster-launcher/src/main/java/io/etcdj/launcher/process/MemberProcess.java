package io.etcdj.launcher.process;

import io.etcdj.launcher.LauncherException;
import io.etcdj.launcher.spec.MemberSpec;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One etcd member process: starts it with its output going to its log file and the log sink,
 * and stops, kills, pauses and resumes it. A member can be started again after it stopped; the
 * log file is appended to.
 */
public final class MemberProcess {
    /**
     * What the launcher knows about the process. KILLED: by {@link #kill()} (SIGKILL, as a crash),
     * told apart from a clean stop for status and the dashboard.
     */
    public enum State { STOPPED, KILLED, RUNNING, PAUSED, EXITED }

    private static final int REMEMBERED_LINES = 40;
    private static final int REMEMBERED_FIRST_LINES = 5;

    private final MemberSpec spec;
    private final List<String> command;
    private final Map<String, String> env;
    private final Path workDir;
    private final Path logFile;
    private final LogSink sink;
    /** The first lines of the current run; later lines go to {@link #lastLines}. Guarded by lastLines. */
    private final List<String> firstLines = new ArrayList<>();
    private final Deque<String> lastLines = new ArrayDeque<>();
    private int linesSeen;
    private Process process;
    private Thread pump;
    private volatile State state = State.STOPPED;
    private volatile boolean stopRequested;

    public MemberProcess(MemberSpec spec, List<String> command, Map<String, String> env, Path workDir,
            Path logFile, LogSink sink) {
        this.spec = spec;
        this.command = List.copyOf(command);
        this.env = Map.copyOf(env);
        this.workDir = workDir;
        this.logFile = logFile;
        this.sink = sink;
    }

    public MemberSpec spec() {
        return spec;
    }

    public List<String> command() {
        return command;
    }

    public synchronized State state() {
        return state;
    }

    public synchronized Optional<Long> pid() {
        return process != null && process.isAlive() ? Optional.of(process.pid()) : Optional.empty();
    }

    public synchronized Optional<Integer> exitCode() {
        return process != null && !process.isAlive() ? Optional.of(process.exitValue()) : Optional.empty();
    }

    public synchronized void start() {
        if (process != null && process.isAlive()) {
            throw new LauncherException(spec.process() + " is already running (pid " + process.pid() + ")");
        }
        try {
            Files.createDirectories(logFile.getParent());
            ProcessBuilder pb = new ProcessBuilder(command).directory(workDir.toFile()).redirectErrorStream(true);
            pb.environment().putAll(env);
            process = pb.start();
        } catch (IOException e) {
            throw new LauncherException("cannot start " + spec.process() + ": " + e.getMessage());
        }
        synchronized (lastLines) {
            lastLines.clear();
            firstLines.clear();
            linesSeen = 0;
        }
        stopRequested = false;
        state = State.RUNNING;
        Process started = process;
        pump = new Thread(() -> pumpOutput(started), "log-" + spec.process());
        pump.setDaemon(true);
        pump.start();
    }

    /** Stops with SIGTERM, then SIGKILL if the member is still there after {@code grace}. */
    public void stop(Duration grace) {
        Process p;
        synchronized (this) {
            p = process;
            if (p == null || !p.isAlive()) {
                state = State.STOPPED;
                return;
            }
            stopRequested = true;
            if (state == State.PAUSED) {
                Signals.cont(p.pid()); // a stopped process cannot act on SIGTERM
            }
        }
        // Signal through the ProcessHandle: Process.destroy() would also close the output pipe and
        // lose the member's last words (its shutdown log lines).
        p.toHandle().destroy();
        try {
            if (!p.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                p.toHandle().destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            p.toHandle().destroyForcibly();
            Thread.currentThread().interrupt();
        }
        awaitPump();
        synchronized (this) {
            state = State.STOPPED;
        }
    }

    /** SIGKILL, as a crash would. */
    public void kill() {
        Process p;
        synchronized (this) {
            p = process;
            if (p == null || !p.isAlive()) {
                throw new LauncherException(spec.process() + " is not running");
            }
            stopRequested = true;
        }
        p.toHandle().destroyForcibly();
        try {
            p.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        awaitPump();
        synchronized (this) {
            state = State.KILLED;
        }
    }

    public synchronized void pause() {
        long pid = requireRunning();
        if (state == State.PAUSED) {
            throw new LauncherException(spec.process() + " is already paused");
        }
        Signals.stop(pid);
        state = State.PAUSED;
    }

    public synchronized void resume() {
        long pid = requireRunning();
        if (state != State.PAUSED) {
            throw new LauncherException(spec.process() + " is not paused");
        }
        Signals.cont(pid);
        state = State.RUNNING;
    }

    /**
     * What the member printed in this run, shortened for start-up failure reports: its first
     * {@code head} lines (a usage error is at the top, above a long flag list) and its last
     * {@code tail} lines, with "..." where lines were left out. For a process that has exited,
     * waits briefly for the rest of its output first.
     */
    public List<String> outputSummary(int head, int tail) {
        if (exitCode().isPresent()) {
            awaitPump();
        }
        synchronized (lastLines) {
            List<String> last = new ArrayList<>(lastLines);
            if (linesSeen <= head + tail) {
                List<String> all = new ArrayList<>(firstLines);
                all.addAll(last.subList(Math.max(0, last.size() - (linesSeen - firstLines.size())), last.size()));
                return all;
            }
            List<String> summary = new ArrayList<>(firstLines.subList(0, Math.min(head, firstLines.size())));
            summary.add("...");
            summary.addAll(last.subList(Math.max(0, last.size() - tail), last.size()));
            return summary;
        }
    }

    private long requireRunning() {
        if (process == null || !process.isAlive()) {
            throw new LauncherException(spec.process() + " is not running");
        }
        return process.pid();
    }

    private void awaitPump() {
        Thread t = pump;
        if (t != null) {
            try {
                t.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void pumpOutput(Process p) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
                  BufferedWriter log = Files.newBufferedWriter(logFile, StandardCharsets.UTF_8,
                          StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
            String line;
            while ((line = in.readLine()) != null) {
                remember(line);
                log.write(line);
                log.newLine();
                log.flush();
                sink.line(spec.process(), line);
            }
        } catch (IOException e) {
            sink.line(spec.process(), "(launcher: log output lost: " + e.getMessage() + ")");
        }
        try {
            int code = p.waitFor();
            synchronized (this) {
                if (process == p && !stopRequested) {
                    state = State.EXITED;
                }
            }
            String how = stopRequested ? "stopped" : "exited with code " + code;
            sink.line(spec.process(), "(launcher: " + spec.process() + " " + how + ")");
            appendNotice("(launcher: " + spec.process() + " " + how + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void appendNotice(String text) {
        try {
            Files.writeString(logFile, text + System.lineSeparator(), StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException ignored) {
            // The console already shows the notice; a missing line in the log file is harmless.
        }
    }

    private void remember(String line) {
        synchronized (lastLines) {
            linesSeen++;
            if (firstLines.size() < REMEMBERED_FIRST_LINES) {
                firstLines.add(line);
                return;
            }
            lastLines.addLast(line);
            while (lastLines.size() > REMEMBERED_LINES) {
                lastLines.removeFirst();
            }
        }
    }
}
