package io.etcdj.server.etcdserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class FailpointsTest {
    @Test
    void parsesSleepsAndCrashes() {
        assertEquals(Map.of("raftAfterSave", "crash", "applyBeforeConfChange", "sleep(250)"),
                Failpoints.parse("raftAfterSave=crash, applyBeforeConfChange=sleep(250)"));
        assertTrue(Failpoints.parse("").isEmpty());
        assertTrue(Failpoints.parse(null).isEmpty());
    }

    @Test
    void refusesWhatItCannotDo() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Failpoints.parse("raftAfterSave=panic"));
        assertEquals("malformed failpoint 'raftAfterSave=panic': want name=sleep(millis) or name=crash", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Failpoints.parse("sleep(10)"));
    }
}
