package io.etcdj.etcdutl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** What the restore's progress line shows for each phase, and that it leaves nothing behind. */
class RestoreProgressLineTest {
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final PrintStream stream = new PrintStream(err, true, StandardCharsets.UTF_8);

    @Test
    void bytesOfTheFileThenRecordsWrittenEachOnOneLineErasedAtTheEnd() {
        try (RestoreProgressLine p = new RestoreProgressLine(true, stream)) {
            p.bytesRead(64 << 10, 1 << 20);
            p.recordsWritten(1);
        }
        String out = err.toString(StandardCharsets.UTF_8);
        // (a rate follows the figures once half a second has passed; a slow machine may get there)
        int bytes = out.indexOf("\r\033[Ksnapshot restore: 64.0 KiB of 1.0 MiB (6%)");
        int records = out.indexOf("\r\033[K\r\033[Ksnapshot restore: writing: 1 records");
        assertEquals(0, bytes, out);
        assertTrue(records > bytes, "the bytes line is erased, then the records line drawn: " + out);
        assertTrue(out.endsWith("\r\033[K"), "erased at the end: " + out);
        assertFalse(out.contains("\n"), out);
    }

    @Test
    void ourOwnFileHasBytesOnly() {
        try (RestoreProgressLine p = new RestoreProgressLine(true, stream)) {
            p.bytesRead(1 << 20, 1 << 20);
        }
        String out = err.toString(StandardCharsets.UTF_8);
        assertTrue(out.startsWith("\r\033[Ksnapshot restore: 1.0 MiB of 1.0 MiB (100%)"), out);
        assertTrue(out.endsWith("\r\033[K"), out);
        assertFalse(out.contains("writing"), out);
    }

    @Test
    void notShownWritesNothing() {
        try (RestoreProgressLine p = new RestoreProgressLine(false, stream)) {
            p.bytesRead(1, 2);
            p.recordsWritten(5);
        }
        assertEquals("", err.toString(StandardCharsets.UTF_8));
    }
}
