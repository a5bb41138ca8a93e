package io.etcdj.launcher.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.harness.Eventually;
import io.etcdj.launcher.spec.MemberSpec;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A member process is any program here: /bin/sh printing lines stands in for etcd. */
class MemberProcessTest {
    @TempDir Path dir;
    private final List<String> sunk = new CopyOnWriteArrayList<>();

    private MemberProcess shell(String script) {
        MemberSpec spec = new MemberSpec("p1", "p1", List.of(URI.create("http://127.0.0.1:1")),
                List.of(URI.create("http://127.0.0.1:1")), List.of(URI.create("http://127.0.0.1:2")),
                List.of(URI.create("http://127.0.0.1:2")), Optional.empty(), List.of(), Map.of(), "new", 1);
        return new MemberProcess(spec, List.of("/bin/sh", "-c", script), Map.of("GREETING", "hi"), dir,
                dir.resolve("p1.log"), (process, line) -> sunk.add(process + ": " + line));
    }

    private static void awaitExit(MemberProcess mp) throws InterruptedException {
        Eventually.until("the process exits", Duration.ofSeconds(20), () -> mp.exitCode().isPresent());
    }

    @Test
    void outputGoesToTheSinkAndTheLogFileWithTheEnvironment() throws Exception {
        MemberProcess mp = shell("echo \"$GREETING\"; echo bye; exit 3");
        mp.start();
        awaitExit(mp);
        assertEquals(Optional.of(3), mp.exitCode());
        assertEquals(List.of("hi", "bye"), mp.outputSummary(3, 22));
        List<String> log = Files.readAllLines(dir.resolve("p1.log"));
        assertEquals(List.of("hi", "bye", "(launcher: p1 exited with code 3)"), log);
        assertTrue(sunk.containsAll(List.of("p1: hi", "p1: bye", "p1: (launcher: p1 exited with code 3)")), sunk.toString());
    }

    @Test
    void longOutputKeepsTheFirstAndTheLastLines() throws Exception {
        MemberProcess mp = shell("echo 'flag provided but not defined: -x'; i=2; while [ $i -le 60 ]; do echo line$i; i=$((i+1)); done; "
                + "exit 2");
        mp.start();
        awaitExit(mp);
        List<String> summary = mp.outputSummary(3, 22);
        List<String> expected = new ArrayList<>(List.of("flag provided but not defined: -x", "line2", "line3", "..."));
        for (int i = 39; i <= 60; i++) {
            expected.add("line" + i);
        }
        assertEquals(expected, summary);
    }

    @Test
    void stopSendsSigtermAndKeepsTheLastWords() throws Exception {
        MemberProcess mp = shell("trap 'echo shutting down; exit 0' TERM; echo ready; while true; do sleep 0.05; done");
        mp.start();
        Eventually.until("the shell says ready", Duration.ofSeconds(20), () -> sunk.contains("p1: ready"));
        mp.stop(Duration.ofSeconds(10));
        assertEquals(MemberProcess.State.STOPPED, mp.state());
        assertTrue(Files.readAllLines(dir.resolve("p1.log")).contains("shutting down"),
                "the member's output after SIGTERM is not lost");
    }
}
