package io.etcdj.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ResourcesTest {

    @Test
    void closesNewestFirstAndEveryOneEvenWhenOneFails() throws Exception {
        Resources res = new Resources();
        List<String> closed = new ArrayList<>();
        Path dir = res.dir("harness-test-");
        Files.writeString(dir.resolve("f"), "x");
        res.track(() -> closed.add("first"));
        res.track(() -> {
            closed.add("second");
            throw new IllegalStateException("cannot close");
        });
        res.track(() -> closed.add("third"));
        IllegalStateException e = assertThrows(IllegalStateException.class, res::closeAll);
        assertEquals("cannot close", e.getMessage());
        assertEquals(List.of("third", "second", "first"), closed);
        assertFalse(Files.exists(dir), "the temp dir is deleted with its files");
    }

    @Test
    void aFailureCarriesTheLogTailOfEveryProcessHeld() throws Exception {
        Resources res = new Resources();
        try {
            Path log = res.dir("harness-test-").resolve("p.log");
            LoggedProcess p = res.track(LoggedProcess.start("talker", List.of("sh", "-c", "echo it went wrong"), log,
                    null, Map.of()));
            p.waitFor(Duration.ofSeconds(10));
            AssertionError failure = new AssertionError("the test failed");
            Throwable thrown = assertThrows(AssertionError.class, () -> res.handleTestExecutionException(null, failure));
            assertEquals(failure, thrown);
            assertEquals(1, failure.getSuppressed().length);
            assertEquals("log of " + p + ":\nit went wrong", failure.getSuppressed()[0].getMessage());
        } finally {
            res.closeAll();
        }
    }
}
