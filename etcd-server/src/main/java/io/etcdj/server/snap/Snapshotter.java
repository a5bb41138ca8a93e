package io.etcdj.server.snap;

import io.etcdj.raftpb.Snapshot;
import io.etcdj.raftpb.SnapshotMetadata;
import io.etcdj.server.metrics.SnapMetrics;
import io.etcdj.server.wal.DiskFile;
import io.etcdj.server.wal.DiskIo;
import io.etcdj.server.wal.WalSnapshot;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Saves and loads Raft snapshots as files {@code %016x-%016x.snap} (term, index) in the snap
 * directory. Other files there, the backend's {@code db} above all, are never touched: only names
 * this class writes ({@code *.snap}, {@code *.snap.tmp}, {@code *.snap.broken}) are considered.
 * Not thread-safe; the Raft loop owns it.
 */
public final class Snapshotter {

    private final Path dir;
    private final DiskIo io;
    private final SnapMetrics metrics;

    public Snapshotter(Path snapDir) {
        this(snapDir, DiskIo.real());
    }

    public Snapshotter(Path snapDir, DiskIo io) {
        this(snapDir, io, SnapMetrics.unexported());
    }

    /** A member's snapshotter, timing its saves into the member's {@code metrics}. */
    public Snapshotter(Path snapDir, DiskIo io, SnapMetrics metrics) {
        this.dir = snapDir;
        this.io = io;
        this.metrics = metrics;
    }

    public Path dir() {
        return dir;
    }

    /**
     * Writes {@code snapshot} atomically: to a temporary file, fsync, rename, fsync of the
     * directory. A crash leaves either the complete file or none. An empty snapshot (index 0) is
     * not written.
     */
    public void save(Snapshot snapshot) throws IOException {
        SnapshotMetadata md = snapshot.getMetadata();
        if (md.getIndex() == 0) {
            return;
        }
        long start = System.nanoTime();
        io.createDirectories(dir);
        String name = new SnapshotFileName(md.getTerm(), md.getIndex()).fileName();
        Path temp = dir.resolve(name + SnapshotFileName.TEMP_SUFFIX);
        try (DiskFile f = io.createTruncated(temp)) {
            long marshalling = System.nanoTime();
            ByteBuffer encoded = ByteBuffer.wrap(SnapshotFileFormat.encode(snapshot));
            metrics.marshalled(marshalling);
            f.write(encoded, 0);
            long fsync = System.nanoTime();
            f.sync();
            metrics.fsynced(fsync);
        }
        io.rename(temp, dir.resolve(name));
        io.syncDirectory(dir);
        metrics.saved(start);
    }

    /**
     * The newest snapshot that decodes and that {@code usable} accepts (typically: it is marked in
     * the WAL). Files that fail to decode are renamed to {@code <name>.broken} and skipped.
     */
    public Optional<Snapshot> loadNewestAvailable(Predicate<WalSnapshot> usable) throws IOException {
        for (SnapshotFileName name : newestFirst()) {
            if (!usable.test(new WalSnapshot(name.index(), name.term()))) {
                continue;
            }
            Optional<Snapshot> loaded = loadOrSetAside(name);
            if (loaded.isPresent()) {
                return loaded;
            }
        }
        return Optional.empty();
    }

    /** Reads one snapshot file, checking its checksum and that it matches its name (for tools). */
    public static Snapshot read(Path file) throws IOException {
        return read(file, DiskIo.real());
    }

    /** Reads one snapshot file through {@code io}, checking its checksum and that it matches its name. */
    public static Snapshot read(Path file, DiskIo io) throws IOException {
        String fileName = file.getFileName().toString();
        byte[] content;
        try (DiskFile f = io.openForRead(file)) {
            content = f.readAll();
        }
        Snapshot s = SnapshotFileFormat.decode(content, fileName);
        Optional<SnapshotFileName> name = SnapshotFileName.parse(fileName);
        SnapshotMetadata md = s.getMetadata();
        if (name.isPresent() && (name.get().index() != md.getIndex() || name.get().term() != md.getTerm())) {
            throw new SnapshotCorruptedException("snap: " + fileName + " holds the snapshot at term "
                    + md.getTerm() + " index " + md.getIndex());
        }
        return s;
    }

    /**
     * Deletes all but the newest {@code max} snapshot files (etcd's {@code --max-snapshots}; 0
     * keeps all), and temporary files a crash left behind.
     *
     * @return how many snapshot files were deleted
     */
    public int purge(int max) throws IOException {
        for (String f : io.list(dir)) {
            if (f.endsWith(SnapshotFileName.SUFFIX + SnapshotFileName.TEMP_SUFFIX)
                    && SnapshotFileName.parse(f.substring(0, f.length() - SnapshotFileName.TEMP_SUFFIX.length()))
                            .isPresent()) {
                io.delete(dir.resolve(f));
            }
        }
        if (max <= 0) {
            return 0;
        }
        List<SnapshotFileName> names = newestFirst();
        int deleted = 0;
        for (int i = max; i < names.size(); i++) {
            io.delete(dir.resolve(names.get(i).fileName()));
            deleted++;
        }
        return deleted;
    }

    private Optional<Snapshot> loadOrSetAside(SnapshotFileName name) throws IOException {
        Path file = dir.resolve(name.fileName());
        try {
            return Optional.of(read(file, io));
        } catch (SnapshotCorruptedException e) {
            io.rename(file, dir.resolve(name.fileName() + SnapshotFileName.BROKEN_SUFFIX));
            return Optional.empty();
        }
    }

    private List<SnapshotFileName> newestFirst() throws IOException {
        List<SnapshotFileName> names = new ArrayList<>();
        for (String f : io.list(dir)) {
            SnapshotFileName.parse(f).ifPresent(names::add);
        }
        Collections.sort(names, Collections.reverseOrder());
        return names;
    }
}
