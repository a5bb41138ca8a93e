package io.etcdj.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A command runs with the test's input, variables and directory, and leaves no process behind. */
class CommandTest {
    @TempDir
    Path dir;

    @Test
    void inputVariablesAndDirectoryReachTheCommand() throws Exception {
        Command.Result r = Command.of("sh", "-c", "read line; echo \"$line $GREETING $(pwd)\"; echo oops >&2; exit 3")
                .stdin("hello\n").env("GREETING", "world").dir(dir).run();
        assertEquals(3, r.exitCode());
        assertEquals("hello world " + dir.toRealPath() + "\n", r.stdout());
        assertEquals("oops\n", r.stderr());
    }

    @Test
    void aRemovedVariablePrefixIsNotInherited() throws Exception {
        Command.Result r = Command.of("sh", "-c", "env").withoutEnv("PATH").run();
        assertFalse(r.stdout().lines().anyMatch(l -> l.startsWith("PATH=")), r.stdout());
    }

    @Test
    void aCommandThatDoesNotEndIsKilledWithWhatItStarted() throws Exception {
        Path pidFile = dir.resolve("child.pid");
        AssertionError e = assertThrows(AssertionError.class, () -> Command.of("sh", "-c",
                "sleep 300 & echo $! > " + pidFile + "; echo started; wait").timeout(Duration.ofSeconds(2)).run());
        assertTrue(e.getMessage().contains("did not end within PT2S"), e.getMessage());
        long child = Long.parseLong(Files.readString(pidFile).strip());
        Eventually.until("the background sleep is gone", Duration.ofSeconds(10),
                () -> ProcessHandle.of(child).map(h -> !h.isAlive()).orElse(true));
    }
}
