package io.etcdj.certs.it;

import io.etcdj.harness.Prerequisites;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs a short-lived tool (etcdctl, curl) to completion with a time limit; output is stdout+stderr. */
record ExternalCommand(int exitCode, String output) {
    static final Path ETCD = Path.of("/usr/bin/etcd");
    static final Path ETCDCTL = Path.of("/usr/bin/etcdctl");

    static ExternalCommand run(List<String> command, Duration limit) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("ETCDCTL_API", "3");
        Process process = builder.start();
        try {
            byte[] output = process.getInputStream().readAllBytes();
            if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
                return new ExternalCommand(-1, "timed out: " + command);
            }
            return new ExternalCommand(process.exitValue(), new String(output, StandardCharsets.UTF_8));
        } finally {
            process.destroyForcibly();
            process.waitFor(5, TimeUnit.SECONDS);
        }
    }

    /** curl, which .ci/run installs: a test that uses it fails without it (see Prerequisites). */
    static Path curl() {
        return Prerequisites.requireCommand("curl", "curl");
    }
}
