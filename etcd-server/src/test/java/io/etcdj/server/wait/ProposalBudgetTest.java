package io.etcdj.server.wait;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ProposalBudgetTest {
    @Test
    void refusesPastEitherBoundAndTakesNothingWhenItRefuses() {
        ProposalBudget b = new ProposalBudget(3, 100);
        assertTrue(b.tryAcquire(40));
        assertTrue(b.tryAcquire(40));
        assertFalse(b.tryAcquire(40), "140 bytes would pass the 100-byte bound");
        assertEquals(2, b.count());
        assertEquals(80, b.bytes());
        assertTrue(b.tryAcquire(10));
        assertFalse(b.tryAcquire(1), "a fourth proposal would pass the count bound");
        b.release(40);
        assertTrue(b.tryAcquire(1));
        assertEquals(3, b.count());
        assertEquals(51, b.bytes());
    }

    @Test
    void aProposalLargerThanTheWholeBudgetFitsWhenNothingElseIsHeld() {
        ProposalBudget b = new ProposalBudget(10, 100);
        assertTrue(b.tryAcquire(500));
        assertFalse(b.tryAcquire(1));
        b.release(500);
        assertTrue(b.tryAcquire(1));
        assertFalse(b.tryAcquire(500), "not while another proposal is held");
    }
}
