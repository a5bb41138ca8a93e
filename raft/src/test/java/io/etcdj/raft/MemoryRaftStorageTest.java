package io.etcdj.raft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.etcdj.raftpb.ConfState;
import io.etcdj.raftpb.Entry;
import io.etcdj.raftpb.Snapshot;
import io.etcdj.raftpb.SnapshotMetadata;
import java.util.List;
import org.junit.jupiter.api.Test;

class MemoryRaftStorageTest {

    private static Entry e(long index, long term) {
        return Entry.newBuilder().setIndex(index).setTerm(term).build();
    }

    private static MemoryRaftStorage withEntries(long... terms) {
        MemoryRaftStorage s = new MemoryRaftStorage();
        for (int i = 0; i < terms.length; i++) {
            s.append(List.of(e(i + 1, terms[i])));
        }
        return s;
    }

    @Test
    void emptyStorageAnswersLikeAnEmptyLog() {
        MemoryRaftStorage s = new MemoryRaftStorage();
        assertEquals(1, s.firstIndex());
        assertEquals(0, s.lastIndex());
        assertEquals(0, s.term(0));
        assertThrows(UnavailableException.class, () -> s.term(1));
        assertThrows(UnavailableException.class, () -> s.entries(1, 1, Long.MAX_VALUE));
    }

    @Test
    void appendOverwritesAConflictingTail() {
        MemoryRaftStorage s = withEntries(1, 1, 2, 2);
        s.append(List.of(e(3, 3), e(4, 3), e(5, 3)));
        assertEquals(5, s.lastIndex());
        assertEquals(List.of(1L, 1L, 3L, 3L, 3L), s.entries(1, 6, Long.MAX_VALUE).stream().map(Entry::getTerm).toList());
        assertThrows(IllegalStateException.class, () -> s.append(List.of(e(9, 3))), "a gap is refused");
    }

    @Test
    void compactionKeepsTheTermOfTheCompactedIndex() {
        MemoryRaftStorage s = withEntries(1, 1, 2, 2, 3);
        s.createSnapshot(3, ConfState.newBuilder().addVoters(1).build(), new byte[] {1});
        s.compact(3);
        assertEquals(4, s.firstIndex());
        assertEquals(2, s.term(3));
        assertThrows(CompactedException.class, () -> s.term(2));
        assertThrows(CompactedException.class, () -> s.entries(3, 5, Long.MAX_VALUE));
        assertEquals(2, s.entries(4, 6, Long.MAX_VALUE).size());
        assertThrows(CompactedException.class, () -> s.compact(2));
        assertEquals(List.of(1L), s.initialState().confState().getVotersList());
    }

    @Test
    void entriesAreLimitedBySizeButNeverEmpty() {
        MemoryRaftStorage s = withEntries(1, 1, 1, 1);
        long one = e(1, 1).getSerializedSize();
        assertEquals(1, s.entries(1, 5, 0).size());
        assertEquals(2, s.entries(1, 5, 2 * one).size());
        assertEquals(4, s.entries(1, 5, Long.MAX_VALUE).size());
    }

    @Test
    void olderSnapshotsAreRefused() {
        MemoryRaftStorage s = new MemoryRaftStorage();
        Snapshot snap = Snapshot.newBuilder().setMetadata(SnapshotMetadata.newBuilder().setIndex(10).setTerm(3)).build();
        s.applySnapshot(snap);
        assertEquals(11, s.firstIndex());
        assertEquals(10, s.lastIndex());
        assertEquals(3, s.term(10));
        assertThrows(SnapshotOutOfDateException.class, () -> s.applySnapshot(snap));
        assertThrows(SnapshotOutOfDateException.class, () -> s.createSnapshot(10, null, new byte[0]));
    }
}
