package io.etcdj.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.harness.EtcdProcess;
import io.etcdj.harness.Eventually;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A member whose start fails with an Error rather than an exception exits with status 1 and the
 * error's stack trace in its log, instead of staying alive with the threads the start had begun.
 * The Error here is a real one: lmdbjava with jnr-ffi's bytecode generation off binds the LMDB
 * library lazily, at the first call, and the member removes its extracted copy once it is loaded.
 */
class StartupErrorExitIT {

    @Test
    void anErrorDuringStartEndsTheProcess() throws Exception {
        try (EtcdProcess member = EtcdProcess.ours()) {
            member.jvmOptions(List.of("-Djnr.ffi.asm.enabled=false"));
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
