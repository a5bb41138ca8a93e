package io.etcdj.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.harness.EtcdProcess;
import io.etcdj.harness.Eventually;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A member whose start fails with an Error rather than an exception exits with status 1 and the
 * error's stack trace in its log, instead of staying alive with the threads the start had begun.
 * The Error here is a real one: lmdbjava told to load the LMDB library from a file that does not
 * exist fails with an {@link UnsatisfiedLinkError} when the member opens its backend.
 */
class StartupErrorExitIT {

    @TempDir
    Path missing;

    @Test
    void anErrorDuringStartEndsTheProcess() throws Exception {
        try (EtcdProcess member = EtcdProcess.ours()) {
            member.jvmOptions(List.of("-Dlmdbjava.native.lib=" + missing.resolve("liblmdb.so")));
            member.launch();
            Eventually.poll(Duration.ofSeconds(30), Duration.ofMillis(50), member::isAlive, alive -> !alive);
            assertFalse(member.isAlive(), "the member exits; log:\n" + member.logTail());
            assertEquals(1, member.exitCode(), member.logTail());
            String log = member.logSinceLaunch();
            assertTrue(log.contains("\"msg\":\"failed to start etcd\"") && log.contains("UnsatisfiedLinkError"), log);
            assertTrue(log.contains("\"stacktrace\":"), "the stack trace says where it came from; log:\n" + log);
        }
    }
}
