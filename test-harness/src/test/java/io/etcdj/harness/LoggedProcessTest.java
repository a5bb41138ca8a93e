package io.etcdj.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class LoggedProcessTest {
    @RegisterExtension
    final Resources res = new Resources();

    @Test
    void logsOutputKeepsTheTailAndStopsByPid() throws Exception {
        Path log = res.dir("harness-test-").resolve("p.log");
        LoggedProcess p = res.track(LoggedProcess.start("lines", List.of("sh", "-c",
                "for i in 1 2 3 4 5; do echo line$i; done; echo \"var=$HARNESS_TEST_VAR\"; exec sleep 60"), log, null,
                Map.of("HARNESS_TEST_VAR", "set")));
        Eventually.until("the last line", Duration.ofSeconds(10), () -> p.logSinceStart().contains("var=set"));
        assertEquals("line5\nvar=set", p.logTail(2));
        assertTrue(p.isAlive());
        assertTrue(ProcessHandle.of(p.pid()).isPresent());
        p.stop(Duration.ofSeconds(10));
        assertFalse(p.isAlive());
        assertEquals(143, p.exitCode(), "SIGTERM");
    }

    @Test
    void aProcessThatExitsEndsTheWaitWithItsLog() throws Exception {
        Path log = res.dir("harness-test-").resolve("p.log");
        Files.writeString(log, "an earlier run\n");
        LoggedProcess p = res.track(LoggedProcess.start("failing", List.of("sh", "-c", "echo bad flag; exit 2"), log,
                null, Map.of()));
        AssertionError e = assertThrows(AssertionError.class,
                () -> p.awaitLogLineAndPort("ready", FreePorts.pick(), Duration.ofSeconds(30)));
        assertTrue(e.getMessage().contains("exited with 2 before it was ready; log:\nan earlier run\nbad flag"),
                e.getMessage());
        assertEquals("bad flag\n", p.logSinceStart());
    }
}
