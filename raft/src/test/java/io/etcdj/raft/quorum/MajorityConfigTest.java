package io.etcdj.raft.quorum;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MajorityConfigTest {

    @Test
    void committedIndexIsTheHighestIndexHeldByAMajority() {
        MajorityConfig c = new MajorityConfig(List.of(1L, 2L, 3L));
        assertEquals(5, c.committedIndex(Map.of(1L, 9L, 2L, 5L, 3L, 2L)));
        assertEquals(2, c.committedIndex(Map.of(1L, 9L, 3L, 2L)), "a missing voter counts as 0");
        MajorityConfig four = new MajorityConfig(List.of(1L, 2L, 3L, 4L));
        assertEquals(4, four.committedIndex(Map.of(1L, 9L, 2L, 7L, 3L, 4L, 4L, 1L)), "4 voters need 3");
        assertEquals(7, new MajorityConfig(List.of(1L)).committedIndex(Map.of(1L, 7L)));
        assertEquals(0, new MajorityConfig(List.of()).committedIndex(Map.of(1L, 7L)));
    }

    @Test
    void voteResultNeedsAStrictMajority() {
        MajorityConfig c = new MajorityConfig(List.of(1L, 2L, 3L, 4L));
        assertEquals(VoteResult.PENDING, c.voteResult(Map.of(1L, true, 2L, true)));
        assertEquals(VoteResult.WON, c.voteResult(Map.of(1L, true, 2L, true, 3L, true)));
        assertEquals(VoteResult.LOST, c.voteResult(Map.of(1L, false, 2L, false)));
        assertEquals(VoteResult.PENDING, c.voteResult(Map.of(1L, true, 2L, false, 3L, true)));
        assertEquals(VoteResult.PENDING, c.voteResult(Map.of(9L, true, 8L, true, 7L, true)), "non-voters do not count");
        assertEquals(VoteResult.WON, new MajorityConfig(List.of(1L)).voteResult(Map.of(1L, true)));
    }
}
