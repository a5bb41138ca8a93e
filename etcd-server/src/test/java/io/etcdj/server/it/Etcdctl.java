package io.etcdj.server.it;

import io.etcdj.harness.Command;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

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
        return new Background(start(args));
    }

    private Process start(String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(BINARY.toString());
        cmd.add("--endpoints=" + endpoint);
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        if (workingDir != null) {
            pb.directory(workingDir.toFile());
        }
        pb.environment().keySet().removeIf(k -> k.startsWith("ETCDCTL"));
        pb.environment().put("ETCDCTL_API", "3");
        try {
            return pb.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static CompletableFuture<String> readAll(InputStream in) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /** A running etcdctl; its stdout lines are queued by a reader thread. Closing kills it. */
    public static final class Background implements AutoCloseable {
        private final Process process;
        private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        private final CompletableFuture<String> stderr;

        private Background(Process process) {
            this.process = process;
            this.stderr = readAll(process.getErrorStream());
            Thread reader = new Thread(this::pump, "etcdctl-stdout-" + process.pid());
            reader.setDaemon(true);
            reader.start();
        }

        private void pump() {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    lines.add(line);
                }
            } catch (IOException e) {
                lines.add("<stdout closed: " + e.getMessage() + ">");
            }
        }

        /** The next {@code n} lines, failing with what arrived so far if they do not come within the timeout. */
        public List<String> awaitLines(int n, long timeoutMs) throws InterruptedException {
            List<String> got = new ArrayList<>();
            long deadline = System.currentTimeMillis() + timeoutMs;
            while (got.size() < n) {
                String line = lines.poll(Math.max(1, deadline - System.currentTimeMillis()), TimeUnit.MILLISECONDS);
                if (line == null) {
                    throw new AssertionError("expected " + n + " lines within " + timeoutMs + " ms, got " + got
                            + (process.isAlive() ? "" : "; etcdctl exited " + process.exitValue() + ": " + stderr.getNow("")));
                }
                got.add(line);
            }
            return got;
        }

        public boolean isAlive() {
            return process.isAlive();
        }

        @Override
        public void close() throws InterruptedException {
            process.destroy();
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        }
    }
}
