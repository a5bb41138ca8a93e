package io.etcdj.embedded;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A member as a child JVM running {@code io.etcdj.server.Main} from this JVM's class path, its
 * output appended to a log file beside its data dir. Stop is SIGTERM, kill SIGKILL, pause SIGSTOP.
 */
final class ChildProcessRunner implements MemberRunner {
    private static final Duration STOP_GRACE = Duration.ofSeconds(20);
    private static final int TAIL_LINES = 30;

    private final String name;
    private final Path logFile;
    private final HealthProbe health;
    private volatile Process process;
    private volatile boolean pausedFlag;
    /** The member's failpoints (null: none), given to the child as the etcd command reads them. */
    private final String failpoints;

    ChildProcessRunner(String name, Path logFile, HealthProbe health, String failpoints) {
        this.name = name;
        this.failpoints = failpoints;
        this.logFile = logFile;
        this.health = health;
    }

    @Override
    public void start(List<String> flags, Duration within) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        // bin/etcd's JVM settings that matter for a short-lived test member: C1 only, a small heap
        command.addAll(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx512m", "-Xshare:auto"));
        if (failpoints != null) {
            command.add("-Detcdj.failpoints=" + failpoints);
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), "io.etcdj.server.Main"));
        command.addAll(flags);
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()));
        pb.environment().keySet().removeIf(k -> k.startsWith("ETCD"));
        try {
            process = pb.start();
        } catch (IOException e) {
            throw new EtcdClusterException("member " + name + ": cannot start a JVM: " + e.getMessage(), e);
        }
        long deadline = System.nanoTime() + within.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new EtcdClusterException("member " + name + " exited with status " + process.exitValue()
                        + " while starting:\n" + recentOutput());
            }
            if (health.healthy()) {
                return;
            }
            sleep(50);
        }
        throw new EtcdClusterException("member " + name + " did not become healthy within " + within.toMillis()
                + " ms:\n" + recentOutput());
    }

    @Override
    public void stop() {
        Process p = process;
        if (p == null) {
            return;
        }
        if (paused(p)) {
            signal(p, "CONT");
        }
        p.destroy();
        try {
            if (!p.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly().waitFor();
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        process = null;
    }

    @Override
    public void kill() {
        Process p = process;
        if (p == null) {
            return;
        }
        p.destroyForcibly();
        try {
            p.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        process = null;
    }

    @Override
    public void pause() {
        Process p = requireRunning();
        signal(p, "STOP");
        pausedFlag = true;
    }

    @Override
    public void resume() {
        Process p = requireRunning();
        signal(p, "CONT");
        pausedFlag = false;
    }

    private boolean paused(Process p) {
        return pausedFlag && p.isAlive();
    }

    private Process requireRunning() {
        Process p = process;
        if (p == null || !p.isAlive()) {
            throw new IllegalStateException("member " + name + " is not running");
        }
        return p;
    }

    private void signal(Process p, String signal) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(p.pid())).inheritIO().start();
            if (kill.waitFor() != 0) {
                throw new EtcdClusterException("member " + name + ": kill -" + signal + " failed");
            }
        } catch (IOException e) {
            throw new EtcdClusterException("member " + name + ": cannot send SIG" + signal + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EtcdClusterException("member " + name + ": interrupted sending SIG" + signal, e);
        }
    }

    @Override
    public boolean running() {
        Process p = process;
        return p != null && p.isAlive();
    }

    @Override
    public String recentOutput() {
        try {
            List<String> lines = Files.readAllLines(logFile, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - TAIL_LINES), lines.size()));
        } catch (IOException e) {
            return "(no output: " + e.getMessage() + ")";
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EtcdClusterException("interrupted while waiting for a member", e);
        }
    }
}
