package io.etcdj.etcdutl;

import io.etcdj.harness.Command;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

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
        Command.Result r = Command.of(cmd).env("ETCDCTL_API", "3").stdin(input).run();
        return new Result(r.exitCode(), r.stdout(), r.stderr());
    }
}
