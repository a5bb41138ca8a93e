package io.etcdj.raft;

import io.etcdj.raftpb.Entry;
import io.etcdj.raftpb.Snapshot;
import java.util.List;

/**
 * The read side of the durable log, as the Raft core sees it. The driver writes to it (after an
 * fsync) between {@link RawNode#ready()} and {@link RawNode#advance(Ready)}; the core only reads.
 * Index {@code firstIndex() - 1} is the snapshot's index, whose term is still answered by {@link #term}.
 */
public interface RaftStorage {

    /** The persisted hard state and the membership of the latest snapshot. */
    InitialState initialState();

    /**
     * Entries in {@code [lo, hi)}, cut after {@code maxSize} serialized bytes but never empty when
     * the range is not.
     *
     * @throws CompactedException if {@code lo <= firstIndex() - 1}
     * @throws UnavailableException if the storage holds no entries at all
     */
    List<Entry> entries(long lo, long hi, long maxSize);

    /**
     * Term of entry {@code i}; valid for {@code firstIndex() - 1 <= i <= lastIndex()}.
     *
     * @throws CompactedException below that range
     * @throws UnavailableException above it
     */
    long term(long i);

    /** Index of the first entry still held (the snapshot index plus one). */
    long firstIndex();

    /** Index of the last entry held (the snapshot index if there are no entries). */
    long lastIndex();

    /** The most recent snapshot, sent to followers that need compacted entries. */
    Snapshot snapshot();
}
