package io.etcdj.raft.tracker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class InflightsTest {

    @Test
    void windowFillsFreesInOrderAndWrapsAround() {
        Inflights in = new Inflights(3);
        in.add(5);
        in.add(7);
        in.add(9);
        assertTrue(in.full());
        assertThrows(IllegalStateException.class, () -> in.add(10));
        in.freeLE(7);
        assertEquals(1, in.count());
        in.add(11);
        in.add(13);
        assertTrue(in.full());
        in.freeFirstOne();
        assertEquals(2, in.count());
        in.freeLE(100);
        assertEquals(0, in.count());
        assertFalse(in.full());
    }
}
