package io.etcdj.server.datadir;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import io.etcdj.raftpb.Snapshot;
import io.etcdj.server.wal.WalSnapshot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A real etcd's Raft snapshot files in {@code member/snap}: {@code %016x-%016x.snap} (term,
 * index), each a {@code snappb.Snapshot} (a CRC32C, then the {@code raftpb.Snapshot} it covers,
 * whose data is etcd's v2 store as JSON). Only read, never changed.
 */
final class EtcdSnapFiles {
    private EtcdSnapFiles() {
    }

    /**
     * The newest snapshot that the WAL marks (etcd's rule: a file the WAL does not know of may be
     * newer than the log and is not used) and that reads back whole; empty when there is none.
     */
    static Optional<Snapshot> newestMarked(Path snapDir, List<WalSnapshot> marked) throws DataDirException {
        List<Path> files;
        try (Stream<Path> s = Files.list(snapDir)) {
            files = s.filter(p -> p.getFileName().toString().matches("[0-9a-f]{16}-[0-9a-f]{16}\\.snap"))
                    .sorted(Comparator.reverseOrder()).toList();
        } catch (IOException e) {
            throw IoErrors.describe("open", snapDir, e);
        }
        for (Path f : files) {
            Optional<Snapshot> snap = read(f);
            if (snap.isPresent()) {
                WalSnapshot at = new WalSnapshot(snap.get().getMetadata().getIndex(), snap.get().getMetadata().getTerm());
                if (marked.contains(at)) {
                    return snap;
                }
            }
        }
        return Optional.empty();
    }

    /** The file's snapshot, or empty if it is damaged (etcd moves such a file aside and takes an older one). */
    static Optional<Snapshot> read(Path file) throws DataDirException {
        try {
            CodedInputStream in = CodedInputStream.newInstance(Files.readAllBytes(file));
            int crc = 0;
            byte[] data = null;
            for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
                switch (tag) {
                    case 8 -> crc = in.readUInt32();
                    case 18 -> data = in.readByteArray();
                    default -> in.skipField(tag);
                }
            }
            if (data == null || GoCrc32c.update(0, data) != crc) {
                return Optional.empty();
            }
            return Optional.of(Snapshot.parseFrom(data));
        } catch (InvalidProtocolBufferException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw IoErrors.describe("read", file, e);
        }
    }
}
