package io.etcdj.certs.it;

import io.etcdj.harness.Command;
import io.etcdj.harness.Prerequisites;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** Runs a short-lived tool (etcdctl, curl) to completion with a time limit; output is stdout+stderr. */
record ExternalCommand(int exitCode, String output) {
    static final Path ETCD = Path.of("/usr/bin/etcd");
    static final Path ETCDCTL = Path.of("/usr/bin/etcdctl");

    static ExternalCommand run(List<String> command, Duration limit) throws IOException, InterruptedException {
        Command.Result r = Command.of(command).env("ETCDCTL_API", "3").mergeStderr().timeout(limit).run();
        return new ExternalCommand(r.exitCode(), r.stdout());
    }

    /** curl, which .ci/run installs: a test that uses it fails without it (see Prerequisites). */
    static Path curl() {
        return Prerequisites.requireCommand("curl", "curl");
    }
}
