package io.etcdj.server.it;

import io.etcdj.harness.Command;
import io.etcdj.harness.RunningCommand;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Runs the installed real etcdctl (API v3) against one endpoint, the way a user would. */
public final class Etcdctl {
    static final Path BINARY = Path.of("/usr/bin/etcdctl");
    private static final long TIMEOUT_SECONDS = 30;

    private final String endpoint;
    /** Where etcdctl runs (a unix:// endpoint names a socket file relative to it); null: the test's directory. */
    private final Path workingDir;

    public Etcdctl(String endpoint) {
        this(endpoint, null);
    }

    public Etcdctl(String endpoint, Path workingDir) {
        this.endpoint = endpoint;
        this.workingDir = workingDir;
    }

    /** What a finished command returned. */
    public record Result(int exitCode, String stdout, String stderr) {
        /** The result itself if the command succeeded; fails with everything it printed otherwise. */
        public Result ok() {
            if (exitCode != 0) {
                throw new AssertionError("etcdctl exited " + exitCode + "\nstdout: " + stdout + "\nstderr: " + stderr);
            }
            return this;
        }

        @Override
        public String toString() {
            return "exit " + exitCode + "\nstdout:\n" + stdout + "stderr:\n" + stderr;
        }
    }

    public Result run(String... args) {
        return runWithInput(null, args);
    }

    /** Runs with {@code input} on stdin (the interactive txn form reads it). */
    public Result runWithInput(String input, String... args) {
        List<String> cmd = new ArrayList<>(List.of(BINARY.toString(), "--endpoints=" + endpoint));
        cmd.addAll(List.of(args));
        Command c = Command.of(cmd).dir(workingDir).withoutEnv("ETCDCTL").env("ETCDCTL_API", "3")
                .timeout(Duration.ofSeconds(TIMEOUT_SECONDS));
        if (input != null) {
            c.stdin(input);
        }
        try {
            Command.Result r = c.run();
            return new Result(r.exitCode(), r.stdout(), r.stderr());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /** Starts a long-running command (watch, lease keep-alive) whose output lines are read as they come. */
    public Background background(String... args) {
        List<String> cmd = new ArrayList<>(List.of(BINARY.toString(), "--endpoints=" + endpoint));
        cmd.addAll(List.of(args));
        try {
            return new Background(Command.of(cmd).dir(workingDir).withoutEnv("ETCDCTL").env("ETCDCTL_API", "3").start());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A running etcdctl; its stdout lines are taken as they come. Closing stops it. */
    public static final class Background implements AutoCloseable {
        private final RunningCommand process;

        private Background(RunningCommand process) {
            this.process = process;
        }

        /** The next {@code n} lines, failing with what arrived so far if they do not come within the timeout. */
        public List<String> awaitLines(int n, long timeoutMs) throws InterruptedException {
            return process.nextLines(n, Duration.ofMillis(timeoutMs)).stream().map(l -> l.substring(0, l.length() - 1)).toList();
        }

        public boolean isAlive() {
            return process.isAlive();
        }

        @Override
        public void close() throws InterruptedException {
            process.close();
        }
    }
}
