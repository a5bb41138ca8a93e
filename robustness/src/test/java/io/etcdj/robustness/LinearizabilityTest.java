package io.etcdj.robustness;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.robustness.Op.Kind;
import io.etcdj.robustness.Op.Outcome;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The checker must catch what is not linearizable and pass what is. */
class LinearizabilityTest {
    private static final long INF = Long.MAX_VALUE;
    // generous: the budget only stops a runaway search; these histories take well under a second on a quiet machine
    private final Linearizability checker = new Linearizability(300_000_000_000L);
    private final List<Op> h = new ArrayList<>();

    private void op(int client, Kind kind, String value, String expected, long start, long end, Outcome outcome) {
        h.add(new Op(h.size(), client, "k", kind, value, expected, start, end, outcome, 0, "m1"));
    }

    private void write(int c, String v, long s, long e) {
        op(c, Kind.WRITE, v, null, s, e, e == INF ? Outcome.UNKNOWN : Outcome.OK);
    }

    private void read(int c, String v, long s, long e) {
        op(c, Kind.READ, v, null, s, e, Outcome.OK);
    }

    private void cas(int c, String expected, String v, long s, long e, Outcome outcome) {
        op(c, Kind.CAS, v, expected, s, e, outcome);
    }

    private boolean linearizable() {
        Linearizability.Result r = checker.check(h);
        assertTrue(r.complete(), r.explanation());
        return r.linearizable();
    }

    @Test
    void sequentialHistoryPasses() {
        write(1, "a", 0, 10);
        read(2, "a", 20, 30);
        write(1, "b", 40, 50);
        read(2, "b", 60, 70);
        assertTrue(linearizable());
    }

    @Test
    void aStaleReadAfterAWriteCompletedIsCaught() {
        write(1, "a", 0, 10);
        write(1, "b", 20, 30);
        read(2, "a", 40, 50);
        assertFalse(linearizable());
    }

    @Test
    void aReadOfAValueNeverWrittenIsCaught() {
        write(1, "a", 0, 10);
        read(2, "zzz", 20, 30);
        assertFalse(linearizable());
    }

    @Test
    void aLostAcknowledgedWriteIsCaught() {
        write(1, "a", 0, 10);
        write(2, "b", 20, 30);
        read(3, "a", 40, 50);
        read(3, "b", 60, 70);
        assertFalse(linearizable(), "a then b then a again: b was lost and came back, or a was written twice");
    }

    @Test
    void concurrentOperationsMayTakeEitherOrder() {
        write(1, "a", 0, 100);
        write(2, "b", 10, 90);
        read(3, "a", 95, 120);
        read(4, "a", 130, 140);
        assertTrue(linearizable(), "b then a, both overlapping");
    }

    @Test
    void readsCannotDisagreeAboutTheOrderOfConcurrentWrites() {
        write(1, "a", 0, 100);
        write(2, "b", 0, 100);
        read(3, "a", 110, 120);
        read(4, "b", 130, 140);
        read(5, "a", 150, 160);
        assertFalse(linearizable());
    }

    @Test
    void aWriteWithUnknownOutcomeMayOrMayNotHaveHappened() {
        write(1, "a", 0, 10);
        write(2, "b", 20, INF);
        read(3, "a", 30, 40);
        assertTrue(linearizable(), "never happened (or not yet)");
        read(3, "b", 50, 60);
        assertTrue(linearizable(), "happened between the reads");
        read(3, "a", 70, 80);
        assertFalse(linearizable(), "it cannot un-happen");
    }

    @Test
    void compareAndSetSucceedsOnlyOnTheExpectedValue() {
        write(1, "a", 0, 10);
        cas(2, "a", "b", 20, 30, Outcome.OK);
        read(3, "b", 40, 50);
        assertTrue(linearizable());
        cas(2, "a", "c", 60, 70, Outcome.OK);
        assertFalse(linearizable(), "the value was b, so a CAS expecting a cannot succeed");
    }

    @Test
    void aFailedCompareAndSetMustHaveSeenAnotherValue() {
        write(1, "a", 0, 10);
        cas(2, "a", "b", 20, 30, Outcome.FAILED);
        assertFalse(linearizable(), "nothing else ran: the compare must have matched");
        h.clear();
        write(1, "a", 0, 10);
        write(3, "x", 15, 35);
        cas(2, "a", "b", 20, 30, Outcome.FAILED);
        assertTrue(linearizable(), "x landed first");
    }

    @Test
    void compareAndSetOnAnAbsentKey() {
        cas(1, null, "a", 0, 10, Outcome.OK);
        read(2, "a", 20, 30);
        cas(3, null, "b", 40, 50, Outcome.FAILED);
        assertTrue(linearizable());
    }

    @Test
    void keysAreCheckedSeparatelyAndAViolationNamesItsKey() {
        h.add(new Op(0, 1, "x", Kind.WRITE, "1", null, 0, 10, Outcome.OK, 0, "m1"));
        h.add(new Op(1, 2, "y", Kind.WRITE, "2", null, 0, 10, Outcome.OK, 0, "m1"));
        h.add(new Op(2, 3, "x", Kind.READ, "2", null, 20, 30, Outcome.OK, 0, "m1"));
        Linearizability.Result r = checker.check(h);
        assertFalse(r.linearizable());
        assertTrue(r.explanation().startsWith("key x"), r.explanation());
    }

    /** A long history from a real register with many overlapping clients and unknown outcomes passes in time. */
    @Test
    void aLargeLinearizableHistoryPassesQuickly() {
        Random rnd = new Random(7);
        String value = null;
        long t = 0;
        int id = 0;
        for (int i = 0; i < 3000; i++) {
            int c = rnd.nextInt(10);
            long start = t;
            t += 5;
            // the effect happens at t; the call and return spread around it so clients overlap
            long s = start - rnd.nextInt(40);
            long e = t + rnd.nextInt(40);
            int kind = rnd.nextInt(10);
            if (kind < 5) {
                h.add(new Op(id++, c, "k", Kind.READ, value, null, s, e, Outcome.OK, 0, "m"));
            } else if (kind < 8) {
                value = "v" + i;
                boolean unknown = rnd.nextInt(50) == 0;
                h.add(new Op(id++, c, "k", Kind.WRITE, value, null, s, unknown ? INF : e,
                        unknown ? Outcome.UNKNOWN : Outcome.OK, 0, "m"));
            } else {
                String expected = rnd.nextBoolean() ? value : "nope";
                boolean ok = Objects.equals(expected, value);
                if (ok) {
                    value = "c" + i;
                }
                h.add(new Op(id++, c, "k", Kind.CAS, "c" + i, expected, s, e, ok ? Outcome.OK : Outcome.FAILED, 0, "m"));
            }
        }
        assertTrue(linearizable());
    }

    @Test
    void unknownWritesNobodySawAreDroppedAndSeenOnesMustPrecedeTheirFirstReader() {
        write(1, "a", 0, 10);
        write(2, "lost", 20, INF);
        write(3, "seen", 30, INF);
        read(4, "seen", 40, 50);
        List<Op> narrowed = Linearizability.narrowUnknowns(h);
        assertFalse(narrowed.stream().anyMatch(o -> "lost".equals(o.value())), "nobody saw it: it may never have happened");
        Op seen = narrowed.stream().filter(o -> "seen".equals(o.value()) && o.kind() == Kind.WRITE).findFirst().orElseThrow();
        assertTrue(seen.returnNanos() == 50, "it happened before its reader returned");
        assertTrue(linearizable());
        read(4, "a", 60, 70);
        assertFalse(linearizable(), "once seen, it cannot un-happen");
    }

    /** Many unknown writes (a member killed under load): narrowed, the search stays fast. */
    @Test
    void manyUnknownOutcomesStayTractable() {
        Random rnd = new Random(3);
        String value = null;
        long t = 0;
        for (int i = 0; i < 6000; i++) {
            long s = t - rnd.nextInt(40);
            t += 5;
            long e = t + rnd.nextInt(40);
            if (rnd.nextInt(3) == 0) {
                h.add(new Op(h.size(), i % 10, "k", Kind.READ, value, null, s, e, Outcome.OK, 0, "m"));
            } else {
                boolean unknown = rnd.nextInt(8) == 0;
                boolean happened = !unknown || rnd.nextBoolean();
                if (happened) {
                    value = "v" + i;
                }
                h.add(new Op(h.size(), i % 10, "k", Kind.WRITE, "v" + i, null, s, unknown ? INF : e,
                        unknown ? Outcome.UNKNOWN : Outcome.OK, 0, "m"));
            }
        }
        assertTrue(linearizable());
    }

    @Test
    void aCompareAndSetThatFailedBecauseOfAnUnseenUnknownWriteIsNotAViolation() {
        write(1, "a", 0, 10);
        write(2, "unseen", 20, INF);
        cas(3, "a", "b", 30, 40, Outcome.FAILED);
        assertTrue(linearizable(), "the unknown write may have landed first");
    }
}
