package io.etcdj.server.etcdserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.format.GoBytes;
import org.junit.jupiter.api.Test;

/** --bootstrap-defrag-threshold-megabytes' decision and go-humanize's sizes in its log lines. */
class BootstrapDefragTest {

    @Test
    void defragmentsOnlyWhenAtLeastTheThresholdWouldBeFreed() {
        long mib = 1024 * 1024;
        assertFalse(BootstrapDefrag.wanted(100 * mib, 10 * mib, 0), "0 never defragments");
        assertTrue(BootstrapDefrag.wanted(100 * mib, 10 * mib, 90));
        assertFalse(BootstrapDefrag.wanted(100 * mib, 10 * mib, 91));
        assertFalse(BootstrapDefrag.wanted(100 * mib, 100 * mib, 1));
    }

    @Test
    void sizesAreWrittenAsGoHumanizeWritesThem() {
        assertEquals("9 B", GoBytes.format(9));
        assertEquals("82 kB", GoBytes.format(82_000));
        assertEquals("2.1 MB", GoBytes.format(2_100_000));
        assertEquals("1.0 MB", GoBytes.format(1_048_576));
        assertEquals("28 MB", GoBytes.format(27_578_368));
    }
}
