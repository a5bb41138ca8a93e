package io.etcdj.etcdutl;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A command-line tool run as a process: the real etcdctl, or our bin/etcdutl launcher. */
final class Tool {
    /** The real etcdctl (3.4 or later): $ETCDCTL, else the one on the PATH. */
    static final String ETCDCTL = System.getenv().getOrDefault("ETCDCTL", "etcdctl");
    /** The launcher a user runs (module dir is the working directory of the test JVM). */
    static final Path ETCDUTL = Path.of(System.getProperty("user.dir")).getParent().resolve("bin").resolve("etcdutl");

    record Result(int code, String out, String err) {
        Result ok() {
            if (code != 0) {
                throw new AssertionError("exit " + code + "\nstdout: " + out + "\nstderr: " + err);
            }
            return this;
        }
    }

    private Tool() {
    }

    static Result etcdctl(String endpoints, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(ETCDCTL, "--endpoints=" + endpoints, "--command-timeout=10s"));
        cmd.addAll(List.of(args));
        return run(cmd);
    }

    /** The real etcdctl with {@code input} on its stdin (txn reads its operations there). */
    static Result etcdctlWithInput(String endpoints, String input, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(ETCDCTL, "--endpoints=" + endpoints, "--command-timeout=10s"));
        cmd.addAll(List.of(args));
        return run(cmd, input);
    }

    static Result etcdutl(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(ETCDUTL.toString()));
        cmd.addAll(List.of(args));
        return run(cmd);
    }

    private static Result run(List<String> cmd) throws IOException, InterruptedException {
        return run(cmd, "");
    }

    private static Result run(List<String> cmd, String input) throws IOException, InterruptedException {
        Path errFile = Files.createTempFile("tool-", ".err");
        Path inFile = Files.createTempFile("tool-", ".in");
        try {
            Files.writeString(inFile, input, StandardCharsets.UTF_8);
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(errFile.toFile()).redirectInput(inFile.toFile());
            pb.environment().put("ETCDCTL_API", "3");
            Process p = pb.start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor();
                throw new IllegalStateException("timed out: " + cmd);
            }
            return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8),
                    Files.readString(errFile, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(errFile);
            Files.deleteIfExists(inFile);
        }
    }
}
