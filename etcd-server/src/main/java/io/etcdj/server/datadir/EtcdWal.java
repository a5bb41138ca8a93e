package io.etcdj.server.datadir;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import io.etcdj.raftpb.Entry;
import io.etcdj.raftpb.EntryType;
import io.etcdj.raftpb.HardState;
import io.etcdj.server.wal.WalSnapshot;
import io.etcdj.serverpb.WalMetadata;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Everything a real etcd's WAL directory holds, read in etcd's own format (3.4 to 3.6, which all
 * write it the same way): segment files {@code %016x-%016x.wal}, each a sequence of frames (a
 * little-endian u64 whose low 56 bits are the record's length and whose top byte, when its high bit
 * is set, gives the zero padding to 8 bytes), each frame a {@code walpb.Record} (type, a CRC32C
 * chained over every record's data since the first segment, data). A segment's preallocated tail
 * is zeros: a zero length ends it. A record cut short at the end of the last segment (a crash mid
 * write) ends the log, as etcd repairs it; any other damage is refused.
 *
 * @param memberId this member's ID (the metadata record, etcd's {@code etcdserverpb.Metadata})
 * @param clusterId the cluster's ID
 * @param hardState the last HardState written
 * @param entries every entry still in the log by index, later writes replacing earlier ones from their index on
 * @param snapshots the snapshot markers, oldest first
 */
record EtcdWal(long memberId, long clusterId, HardState hardState, NavigableMap<Long, Entry> entries,
               List<WalSnapshot> snapshots) {
    private static final int METADATA = 1;
    private static final int ENTRY = 2;
    private static final int STATE = 3;
    private static final int CRC = 4;
    private static final int SNAPSHOT = 5;
    /** etcd's bound on one record (its decoder refuses larger: maxWALEntrySizeLimit is 10 MB, frames stay far below this). */
    private static final long MAX_RECORD_BYTES = 1L << 30;

    static boolean exists(Path walDir) {
        return !segments(walDir).isEmpty();
    }

    static EtcdWal read(Path walDir) throws DataDirException {
        List<Path> segments = segments(walDir);
        if (segments.isEmpty()) {
            throw new DataDirException("etcd WAL " + walDir + ": no .wal files");
        }
        Reader r = new Reader();
        for (int i = 0; i < segments.size(); i++) {
            r.readSegment(segments.get(i), i == segments.size() - 1);
        }
        if (r.metadata == null) {
            throw new DataDirException("etcd WAL " + walDir + ": no metadata record");
        }
        WalMetadata meta;
        try {
            meta = WalMetadata.parseFrom(r.metadata);
        } catch (InvalidProtocolBufferException e) {
            throw new DataDirException("etcd WAL " + walDir + ": unreadable metadata record", e);
        }
        return new EtcdWal(meta.getMemberId(), meta.getClusterId(), r.state, r.entries, r.snapshots);
    }

    /** The term of the entry at {@code index}, from the log or a snapshot marker at that index; -1 if neither has it. */
    long termAt(long index) {
        Entry e = entries.get(index);
        if (e != null) {
            return e.getTerm();
        }
        return snapshots.stream().filter(s -> s.index() == index).mapToLong(WalSnapshot::term).max().orElse(-1);
    }

    private static List<Path> segments(Path walDir) {
        if (!Files.isDirectory(walDir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(walDir)) {
            return s.filter(p -> p.getFileName().toString().matches("[0-9a-f]{16}-[0-9a-f]{16}\\.wal")).sorted().toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    /** Reads segment after segment, carrying the checksum chain and the log across them. */
    private static final class Reader {
        private byte[] metadata;
        private HardState state = HardState.getDefaultInstance();
        private final NavigableMap<Long, Entry> entries = new TreeMap<>();
        private final List<WalSnapshot> snapshots = new ArrayList<>();
        private int crc;

        void readSegment(Path file, boolean last) throws DataDirException {
            try (InputStream raw = Files.newInputStream(file);
                 DataInputStream in = new DataInputStream(new BufferedInputStream(raw, 1 << 16))) {
                long offset = 0;
                while (true) {
                    long frame;
                    try {
                        frame = Long.reverseBytes(in.readLong());
                    } catch (EOFException e) {
                        return;
                    }
                    if (frame == 0) {
                        return;
                    }
                    long length = frame & 0x00ffffffffffffffL;
                    int padding = (frame >>> 56 & 0x80) != 0 ? (int) (frame >>> 56 & 0x7) : 0;
                    if (length > MAX_RECORD_BYTES) {
                        throw corrupt(file, offset, "record length " + length + " is not plausible");
                    }
                    byte[] rec = new byte[(int) length + padding];
                    try {
                        in.readFully(rec);
                    } catch (EOFException e) {
                        if (last) {
                            return; // a write cut short by a crash: the log ends before it, as etcd repairs it
                        }
                        throw corrupt(file, offset, "record cut short in a segment that is not the last");
                    }
                    record(file, offset, Arrays.copyOf(rec, (int) length));
                    offset += 8 + rec.length;
                }
            } catch (IOException e) {
                throw IoErrors.describe("read", file, e);
            }
        }

        private void record(Path file, long offset, byte[] bytes) throws DataDirException {
            long type = 0;
            int recCrc = 0;
            byte[] data = new byte[0];
            try {
                CodedInputStream in = CodedInputStream.newInstance(bytes);
                for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
                    switch (tag) {
                        case 8 -> type = in.readInt64();
                        case 16 -> recCrc = in.readUInt32();
                        case 26 -> data = in.readByteArray();
                        default -> in.skipField(tag);
                    }
                }
            } catch (IOException e) {
                throw corrupt(file, offset, "unreadable record");
            }
            if (type == CRC) {
                // each segment opens with the chain's value so far (0 in the first): it must continue it
                if (crc != 0 && recCrc != crc) {
                    throw corrupt(file, offset, "crc mismatch (the segment does not continue the previous one)");
                }
                crc = recCrc;
                return;
            }
            crc = GoCrc32c.update(crc, data);
            if (recCrc != crc) {
                throw corrupt(file, offset, "crc mismatch");
            }
            try {
                switch ((int) type) {
                    case METADATA -> {
                        if (metadata != null && !Arrays.equals(metadata, data)) {
                            throw corrupt(file, offset, "metadata differs from the first segment's");
                        }
                        metadata = data;
                    }
                    case ENTRY -> {
                        Entry e = entry(data);
                        entries.tailMap(e.getIndex(), true).clear();
                        entries.put(e.getIndex(), e);
                    }
                    case STATE -> {
                        HardState hs = HardState.parseFrom(data);
                        if (!hs.equals(HardState.getDefaultInstance())) {
                            state = hs;
                        }
                    }
                    case SNAPSHOT -> snapshots.add(snapshot(data));
                    default -> throw corrupt(file, offset, "unknown record type " + type);
                }
            } catch (IOException e) {
                throw corrupt(file, offset, "unreadable record of type " + type);
            }
        }

        private static DataDirException corrupt(Path file, long offset, String why) {
            return new DataDirException("etcd WAL " + file + " at offset " + offset + ": " + why);
        }
    }

    /** etcd's {@code raftpb.Entry}: Type = 1, Term = 2, Index = 3, Data = 4 (ours numbers them differently). */
    static Entry entry(byte[] data) throws IOException {
        Entry.Builder b = Entry.newBuilder();
        CodedInputStream in = CodedInputStream.newInstance(data);
        for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
            switch (tag) {
                case 8 -> {
                    int type = in.readEnum();
                    EntryType t = EntryType.forNumber(type);
                    if (t == null) {
                        throw new InvalidProtocolBufferException("unknown entry type " + type);
                    }
                    b.setType(t);
                }
                case 16 -> b.setTerm(in.readUInt64());
                case 24 -> b.setIndex(in.readUInt64());
                case 34 -> b.setData(ByteString.copyFrom(in.readByteArray()));
                default -> in.skipField(tag);
            }
        }
        return b.build();
    }

    /** etcd's {@code walpb.Snapshot}: Index = 1, Term = 2 (ConfState = 3 in 3.5+, not needed here). */
    private static WalSnapshot snapshot(byte[] data) throws IOException {
        long index = 0;
        long term = 0;
        CodedInputStream in = CodedInputStream.newInstance(data);
        for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
            switch (tag) {
                case 8 -> index = in.readUInt64();
                case 16 -> term = in.readUInt64();
                default -> in.skipField(tag);
            }
        }
        return new WalSnapshot(index, term);
    }
}
