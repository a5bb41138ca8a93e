package io.etcdj.robustness;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Which Status answers count as a member leading a term, and when two members claim one. */
class LeaderClaimsTest {
    private final LeaderClaims claims = new LeaderClaims();

    private void polls(String member, boolean leader, long term, int times) {
        for (int i = 0; i < times; i++) {
            claims.observe(member, leader, term);
        }
    }

    /** Two members that each lead the same term in polls of their own is what the check is for. */
    @Test
    void twoMembersLeadingOneTermIsAViolation() {
        polls("m2", true, 2, 3);
        polls("m2", false, 2, 1);
        polls("m3", true, 2, 2);
        claims.finish();
        assertEquals(List.of("m2 and m3 both lead term 2"), claims.violations());
    }

    /**
     * etcd 3.4 reports the term of the last entry it applied: a member that just won term 4 names
     * itself leader of term 2 until its first entry of term 4 is applied (a run of the robustness
     * suite against etcd 3.4.23 saw this for more than two polls with a slowed link).
     */
    @Test
    void aNewLeaderStillReportingTheTermBeforeIsNotAClaimOnIt() {
        polls("m2", true, 2, 5);
        claims.noAnswer("m2"); // killed
        polls("m3", true, 2, 3);
        polls("m3", true, 4, 4);
        claims.finish();
        assertEquals(List.of(), claims.violations());
        assertEquals(2, claims.terms());
    }

    /** One answer that pairs a leader with a term it does not hold (read apart) counts for nothing. */
    @Test
    void aClaimSeenInOnePollOnlyDoesNotCount() {
        polls("m1", true, 3, 4);
        polls("m1", false, 3, 1);
        polls("m2", true, 3, 1);
        polls("m2", false, 4, 1);
        claims.finish();
        assertEquals(List.of(), claims.violations());
        assertEquals(1, claims.terms());
    }
}
