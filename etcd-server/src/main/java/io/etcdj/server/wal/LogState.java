package io.etcdj.server.wal;

import com.google.protobuf.InvalidProtocolBufferException;
import io.etcdj.raftpb.Entry;
import io.etcdj.raftpb.HardState;
import io.etcdj.walpb.SnapshotMarker;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The Raft state rebuilt from records in log order: metadata, the last HardState, the entries
 * after the start snapshot (a later entry with an index already seen replaces it and everything
 * after it, as Raft's log truncation does), and the snapshot markers met on the way.
 */
final class LogState {

    private final WalSnapshot start;
    private final boolean requireStartMarker;
    private byte[] metadata;
    private HardState hardState = HardState.getDefaultInstance();
    private final List<Entry> entries = new ArrayList<>();
    private final List<WalSnapshot> markers = new ArrayList<>();
    private boolean startMarkerSeen;
    private long lastIndex;

    /**
     * @param requireStartMarker true to recover from {@code start}: its marker must be found and
     *     the entries after it are collected; false to only collect HardState and markers
     */
    LogState(WalSnapshot start, boolean requireStartMarker) {
        this.start = start;
        this.requireStartMarker = requireStartMarker;
    }

    void apply(Path file, RecordType type, byte[] payload, long offset) throws WalException {
        WalPosition at = new WalPosition(file, offset);
        try {
            switch (type) {
                case METADATA -> metadata(at, payload);
                case ENTRY -> entry(at, Entry.parseFrom(payload));
                case STATE -> hardState = HardState.parseFrom(payload);
                case SNAPSHOT -> marker(SnapshotMarker.parseFrom(payload));
                default -> throw new WalCorruptedException(at, "unexpected " + type + " record");
            }
        } catch (InvalidProtocolBufferException e) {
            throw new WalCorruptedException(at, "cannot decode " + type + " record: " + e.getMessage());
        }
    }

    private void metadata(WalPosition at, byte[] payload) throws WalException {
        if (metadata != null && !Arrays.equals(metadata, payload)) {
            throw new WalCorruptedException(at, "conflicting metadata found");
        }
        metadata = payload;
    }

    private void entry(WalPosition at, Entry e) throws WalException {
        lastIndex = e.getIndex();
        if (!requireStartMarker || Long.compareUnsigned(e.getIndex(), start.index()) <= 0) {
            return;
        }
        long slot = e.getIndex() - start.index() - 1;
        if (slot > entries.size()) {
            throw new WalCorruptedException(at, "entry " + e.getIndex() + " leaves a gap after entry "
                    + (start.index() + entries.size()));
        }
        entries.subList((int) slot, entries.size()).clear();
        entries.add(e);
    }

    private void marker(SnapshotMarker m) throws WalException {
        WalSnapshot s = new WalSnapshot(m.getIndex(), m.getTerm(), m.getConfState());
        markers.add(s);
        lastIndex = Math.max(lastIndex, s.index());
        if (s.index() == start.index()) {
            if (s.term() != start.term() && requireStartMarker) {
                throw new WalSnapshotNotFoundException("wal: snapshot mismatch: the marker at index " + s.index()
                        + " has term " + s.term() + " but the snapshot has term " + start.term());
            }
            startMarkerSeen = true;
        }
    }

    boolean startMarkerSeen() {
        return startMarkerSeen;
    }

    byte[] metadata() {
        return metadata;
    }

    HardState hardState() {
        return hardState;
    }

    List<Entry> entries() {
        return entries;
    }

    List<WalSnapshot> markers() {
        return markers;
    }

    /** Index of the last entry written (or snapshot marked), which names the next segment. */
    long lastIndex() {
        return lastIndex;
    }
}
