package io.etcdj.raft.tracker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ProgressTest {

    @Test
    void probeSendsOneAppendAtATime() {
        Progress p = new Progress(0, 5, 4, false);
        assertFalse(p.isPaused());
        p.setProbeSent(true);
        assertTrue(p.isPaused());
        assertTrue(p.maybeUpdate(4), "an ack unpauses");
        assertFalse(p.isPaused());
        assertEquals(5, p.next());
    }

    @Test
    void rejectionMovesNextBackUsingTheHint() {
        Progress p = new Progress(2, 10, 4, false);
        assertFalse(p.maybeDecrTo(5, 3), "stale: not the index we probed");
        assertTrue(p.maybeDecrTo(9, 4));
        assertEquals(5, p.next());
        assertTrue(p.maybeDecrTo(4, 0));
        assertEquals(3, p.next(), "never below match + 1");
    }

    @Test
    void replicateFallsBackToMatchOnRejection() {
        Progress p = new Progress(5, 6, 4, false);
        p.becomeReplicate();
        p.optimisticUpdate(9);
        assertEquals(10, p.next());
        assertFalse(p.maybeDecrTo(4, 4), "at or below match is stale");
        assertTrue(p.maybeDecrTo(8, 4));
        assertEquals(6, p.next());
    }

    @Test
    void snapshotStatePausesUntilItResolves() {
        Progress p = new Progress(1, 2, 4, false);
        p.becomeSnapshot(20);
        assertTrue(p.isPaused());
        p.becomeProbe();
        assertEquals(21, p.next(), "resume after the snapshot");
        p.becomeSnapshot(30);
        p.abortSnapshot();
        p.becomeProbe();
        assertEquals(2, p.next(), "a failed snapshot resumes from match");
    }
}
