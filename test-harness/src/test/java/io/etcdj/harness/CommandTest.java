package io.etcdj.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
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

    @Test
    void aStartedCommandIsTypedAtReadLineByLineAndSignalled() throws Exception {
        try (RunningCommand c = Command.of("sh", "-c", "trap 'echo got INT; exit 7' INT; echo ready; read a; echo \"read $a\";"
                + " while :; do sleep 0.1; done").start()) {
            assertEquals(List.of("ready\n"), c.nextLines(1, Duration.ofSeconds(10)));
            assertTrue(c.type("typed\n"));
            assertEquals(List.of("read typed\n"), c.nextLines(1, Duration.ofSeconds(10)));
            c.signal("INT");
            Command.Result r = c.finish(Duration.ofSeconds(10));
            assertEquals(7, r.exitCode());
            assertEquals("ready\nread typed\ngot INT\n", r.stdout());
        }
    }

    @Test
    void linesThatDoNotComeFailWithWhatCame() throws Exception {
        try (RunningCommand c = Command.of("sh", "-c", "echo one; sleep 300").start()) {
            AssertionError e = assertThrows(AssertionError.class, () -> c.nextLines(2, Duration.ofMillis(500)));
            assertTrue(e.getMessage().contains("stdout:\none\n"), e.getMessage());
        }
    }

    @Test
    void inputThatStaysOpenEndsOnlyAfterTheCommand() throws Exception {
        // cat would wait for end of file; head ends after its line, and then the input is closed
        Command.Result r = Command.of("head", "-n", "1").stdin("first\nsecond\n").stdinStaysOpen().run();
        assertEquals("first\n", r.stdout());
        AssertionError e = assertThrows(AssertionError.class,
                () -> Command.of("cat").stdin("x").stdinStaysOpen().timeout(Duration.ofSeconds(1)).run());
        assertTrue(e.getMessage().contains("did not end"), e.getMessage());
    }

    @Test
    void atATerminalTheCommandHasOne() throws Exception {
        Prerequisites.requireCommand("script", "util-linux");
        Command.Result r = Command.of("sh", "-c", "tty -s && echo 'has a terminal'; echo err >&2; exit 4").atTerminal().run();
        assertEquals(4, r.exitCode());
        assertEquals("has a terminal\r\nerr\r\n", r.stdout());
        Command.Result piped = Command.of("sh", "-c", "tty -s && echo 'has a terminal'; exit 0").run();
        assertEquals("", piped.stdout());
    }

    @Test
    void closingStopsWhatTheCommandStarted() throws Exception {
        Path pidFile = dir.resolve("child.pid");
        RunningCommand c = Command.of("sh", "-c", "trap '' TERM; sleep 300 & echo $! > " + pidFile + "; wait").start();
        Eventually.until("the child's pid", Duration.ofSeconds(10), () -> Files.exists(pidFile) && Files.size(pidFile) > 0);
        long child = Long.parseLong(Files.readString(pidFile).strip());
        c.close();
        assertFalse(c.isAlive());
        Eventually.until("the background sleep is gone", Duration.ofSeconds(20),
                () -> ProcessHandle.of(child).map(h -> !h.isAlive()).orElse(true));
    }

    @Test
    void wordsAreQuotedForTheShell() {
        assertEquals("etcdctl --endpoints=127.0.0.1:2379 put 'a b' 'it'\\''s' ''",
                Command.shellLine(List.of("etcdctl", "--endpoints=127.0.0.1:2379", "put", "a b", "it's", "")));
    }
}
