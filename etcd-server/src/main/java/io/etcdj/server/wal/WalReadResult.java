package io.etcdj.server.wal;

import io.etcdj.raftpb.Entry;
import io.etcdj.raftpb.HardState;
import java.util.List;
import java.util.Optional;

/**
 * What a WAL holds after a snapshot: the metadata given at creation, the latest HardState (the
 * default instance if none was saved) and the entries after the snapshot index, in order.
 * {@code tornTail} names the partial record cut off the end, if there was one.
 */
public record WalReadResult(byte[] metadata, HardState hardState, List<Entry> entries,
        Optional<WalPosition> tornTail) {

    public WalReadResult {
        metadata = metadata.clone();
        entries = List.copyOf(entries);
    }

    @Override
    public byte[] metadata() {
        return metadata.clone();
    }
}
