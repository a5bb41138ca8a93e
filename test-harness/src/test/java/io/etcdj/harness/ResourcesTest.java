package io.etcdj.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
}
