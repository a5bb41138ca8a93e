package io.etcdj.server.wal;

import io.etcdj.raftpb.Entry;
import io.etcdj.raftpb.HardState;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The write-ahead log of one Raft member. Create it once with {@link #create}; after a restart
 * {@link #open} it at the last snapshot, {@link #readAll} what follows, then {@link #save} each
 * Ready. Not thread-safe: one owning thread (the Raft loop) makes every call; see package-info.
 *
 * <p>After any I/O failure while writing, the instance refuses further writes: what reached the
 * disk is unknown, and only reopening can tell.
 */
public final class Wal implements Closeable {

    private final Path dir;
    private final WalOptions options;
    private final DiskIo io;
    private final WalSnapshot start;
    /** Every segment file of the directory, oldest first; those before {@link #firstHeld} may be purged. */
    private final List<SegmentName> segments;
    private int firstHeld;

    private RecordWriter writer;
    private Segment tail;
    private byte[] metadata;
    private HardState lastState = HardState.getDefaultInstance();
    private long lastIndex;
    private boolean failed;
    private boolean closed;

    private Wal(Path dir, WalOptions options, WalSnapshot start, List<SegmentName> segments, int firstHeld) {
        this.dir = dir;
        this.options = options;
        this.io = options.diskIo();
        this.start = start;
        this.segments = new ArrayList<>(segments);
        this.firstHeld = firstHeld;
    }

    /** True if {@code dir} holds at least one WAL segment. */
    public static boolean exists(Path dir) {
        return exists(dir, DiskIo.real());
    }

    static boolean exists(Path dir, DiskIo io) {
        try {
            return !WalReader.listSegments(io, dir).isEmpty();
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Creates a WAL in {@code dir} (made if missing) whose every segment carries {@code metadata}.
     * The first segment is written under a temporary name and renamed into place, so a crash leaves
     * either no WAL or a complete one. The returned WAL is ready to append.
     */
    public static Wal create(Path dir, byte[] metadata, WalOptions options) throws IOException {
        Objects.requireNonNull(metadata, "metadata");
        DiskIo io = options.diskIo();
        if (exists(dir, io)) {
            throw new WalException("wal: " + dir + " already holds a write-ahead log");
        }
        io.createDirectories(dir);
        SegmentName first = new SegmentName(0, 0);
        Wal wal = new Wal(dir, options, WalSnapshot.NONE, List.of(), 0);
        wal.metadata = metadata.clone();
        wal.writer = new RecordWriter(0);
        wal.writer.crc();
        wal.writer.metadata(metadata);
        wal.writer.snapshot(WalSnapshot.NONE);
        wal.startSegment(first, wal.writer.drain());
        if (dir.getParent() != null) {
            wal.syncDirectory(dir.getParent());
        }
        return wal;
    }

    /**
     * Opens an existing WAL to recover from {@code snapshot} (or {@link WalSnapshot#NONE}). Nothing
     * is read until {@link #readAll}, which must come before any write.
     */
    public static Wal open(Path dir, WalSnapshot snapshot, WalOptions options) throws IOException {
        List<SegmentName> segments = WalReader.listSegments(options.diskIo(), dir);
        if (segments.isEmpty()) {
            throw new WalException("wal: file not found in " + dir);
        }
        int first = SegmentName.lastStartingAtOrBefore(segments, snapshot.index());
        if (first < 0) {
            throw new WalSnapshotNotFoundException("wal: snapshot not found: no segment in " + dir
                    + " reaches back to index " + snapshot.index());
        }
        return new Wal(dir, options, snapshot, segments, first);
    }

    /**
     * Reads a WAL without changing it, as offline tools do: the same checks as {@link #readAll},
     * but a torn tail is only reported in {@link WalReadResult#tornTail()}, not cut off.
     */
    public static WalReadResult verify(Path dir, WalSnapshot snapshot) throws IOException {
        return verify(dir, snapshot, WalOptions.DEFAULT);
    }

    public static WalReadResult verify(Path dir, WalSnapshot snapshot, WalOptions options) throws IOException {
        WalReader.Recovered r = WalReader.read(options.diskIo(), dir, snapshot, true);
        return result(r);
    }

    /**
     * The snapshot markers in the WAL whose index is committed according to the last HardState:
     * the snapshots a member may recover from (pass them to the snapshotter's filter).
     */
    public static List<WalSnapshot> validSnapshots(Path dir, WalOptions options) throws IOException {
        List<SegmentName> segments = WalReader.listSegments(options.diskIo(), dir);
        if (segments.isEmpty()) {
            throw new WalException("wal: file not found in " + dir);
        }
        WalSnapshot oldest = new WalSnapshot(segments.get(0).firstIndex(), 0);
        LogState state = WalReader.read(options.diskIo(), dir, oldest, false).state();
        long commit = state.hardState().getCommit();
        List<WalSnapshot> valid = new ArrayList<>();
        for (WalSnapshot s : state.markers()) {
            if (Long.compareUnsigned(s.index(), commit) <= 0) {
                valid.add(s);
            }
        }
        return valid;
    }

    /**
     * Reads everything after the snapshot given to {@link #open}, cuts off a torn final write, and
     * leaves the WAL ready to append after the last intact record.
     *
     * @throws WalCorruptedException if a record other than a torn final write is damaged
     * @throws WalSnapshotNotFoundException if the snapshot is not marked in the WAL
     */
    public WalReadResult readAll() throws IOException {
        ensureOpen();
        if (tail != null) {
            throw new IllegalStateException("wal: readAll was already called");
        }
        WalReader.Recovered r = WalReader.read(io, dir, start, true);
        segments.clear();
        segments.addAll(r.segments());
        firstHeld = r.firstRead();
        metadata = r.state().metadata();
        lastState = r.state().hardState();
        lastIndex = r.state().lastIndex();
        writer = new RecordWriter(r.runningCrc());
        SegmentName last = r.lastSegment();
        Path path = dir.resolve(last.fileName());
        Segment segment = new Segment(last, path, io.openForWrite(path), r.tailEnd());
        try {
            if (r.tornTail().isPresent()) {
                segment.zero(r.tailEnd(), r.tornDirtyEnd());
            }
            segment.preallocate(options.segmentSizeBytes());
            if (r.tornTail().isPresent()) {
                sync(segment);
            }
        } catch (IOException | RuntimeException e) {
            segment.close();
            throw e;
        }
        tail = segment;
        deleteStaleTempFiles();
        return result(r);
    }

    /**
     * Appends {@code entries} and, if it changed, {@code hardState}, in one write (a batch longer
     * than {@link RecordWriter#PART_BYTES} in parts of about that size). Syncs once when
     * entries were given or the term or vote changed (etcd's rule: a commit index that moved alone
     * may be lost in a crash and is learned again from the leader). Does nothing when there are no
     * entries and the HardState is empty or unchanged. Cuts a new segment when the current one is full.
     */
    public void save(HardState hardState, List<Entry> entries) throws IOException {
        ensureWritable();
        boolean stateChanged = !hardState.equals(HardState.getDefaultInstance()) && !hardState.equals(lastState);
        if (!stateChanged && entries.isEmpty()) {
            return;
        }
        boolean mustSync = !entries.isEmpty() || (stateChanged
                && (hardState.getTerm() != lastState.getTerm() || hardState.getVote() != lastState.getVote()));
        try {
            for (Entry e : entries) {
                if (writer.pending() >= RecordWriter.PART_BYTES) {
                    write(writer.drainPart());
                }
                writer.entry(e);
                lastIndex = e.getIndex();
            }
            if (stateChanged) {
                writer.state(hardState);
                lastState = hardState;
            }
            write(writer.drain());
            if (tail.end() >= options.segmentSizeBytes()) {
                cut();
            } else if (mustSync) {
                sync(tail);
            }
        } catch (IOException e) {
            failed = true;
            throw WalWriteException.of(tail.path(), e);
        } catch (RuntimeException e) {
            failed = true;
            throw e;
        }
    }

    private void write(ByteBuffer encoded) throws IOException {
        options.writtenBytes().accept(encoded.remaining());
        tail.append(encoded);
    }

    /**
     * Records that a snapshot up to {@code snapshot.index()} was saved, and syncs. Write the
     * snapshot file first: the marker promises that a snapshot file exists for it.
     */
    public void saveSnapshot(WalSnapshot snapshot) throws IOException {
        ensureWritable();
        try {
            writer.snapshot(snapshot);
            if (Long.compareUnsigned(lastIndex, snapshot.index()) < 0) {
                lastIndex = snapshot.index();
            }
            tail.append(writer.drain());
            if (tail.end() >= options.segmentSizeBytes()) {
                cut();
            } else {
                sync(tail);
            }
        } catch (IOException e) {
            failed = true;
            throw WalWriteException.of(tail.path(), e);
        } catch (RuntimeException e) {
            failed = true;
            throw e;
        }
    }

    /**
     * Lets go of the segments that only hold entries before {@code index}: every segment before
     * the one recovery from a snapshot at {@code index} would start reading. Released segments are
     * then deleted, oldest first, while more than {@code maxWals} segment files exist.
     *
     * @return how many segment files were deleted
     */
    public int releaseLockTo(long index) throws IOException {
        ensureOpen();
        int keepFrom = SegmentName.lastStartingAtOrBefore(segments, index);
        firstHeld = Math.max(firstHeld, keepFrom);
        return purge();
    }

    private int purge() throws IOException {
        int max = options.maxWals();
        int deleted = 0;
        while (max > 0 && segments.size() > max && firstHeld > 0) {
            io.delete(dir.resolve(segments.get(0).fileName()));
            segments.remove(0);
            firstHeld--;
            deleted++;
        }
        return deleted;
    }

    /** The metadata given at creation (available after {@link #create} or {@link #readAll}). */
    public byte[] metadata() {
        return metadata == null ? null : metadata.clone();
    }

    public Path dir() {
        return dir;
    }

    /** Segment files currently in the directory, oldest first (for tools and tests). */
    public List<Path> segmentFiles() {
        List<Path> files = new ArrayList<>();
        for (SegmentName s : segments) {
            files.add(dir.resolve(s.fileName()));
        }
        return files;
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        if (tail != null) {
            try {
                if (!failed) {
                    sync(tail);
                }
            } finally {
                tail.close();
            }
        }
    }

    /** Finishes the full segment and starts the next, carrying the checksum chain and HardState over. */
    private void cut() throws IOException {
        tail.trimToEnd();
        sync(tail);
        tail.close();
        SegmentName next = new SegmentName(tail.name().seq() + 1, lastIndex + 1);
        writer.crc();
        writer.metadata(metadata);
        if (!lastState.equals(HardState.getDefaultInstance())) {
            writer.state(lastState);
        }
        startSegment(next, writer.drain());
    }

    /**
     * Writes a segment's opening records under a temporary name, syncs, and renames it into place,
     * so a segment file either does not exist or starts complete.
     */
    private void startSegment(SegmentName name, ByteBuffer openingRecords) throws IOException {
        Path temp = dir.resolve(name.tempFileName());
        Path path = dir.resolve(name.fileName());
        Segment segment = new Segment(name, path, io.createTruncated(temp), 0);
        try {
            segment.preallocate(options.segmentSizeBytes());
            segment.append(openingRecords);
            sync(segment);
            io.rename(temp, path);
            syncDirectory(dir);
        } catch (IOException e) {
            segment.close();
            throw WalWriteException.of(temp, e);
        } catch (RuntimeException e) {
            segment.close();
            throw e;
        }
        segments.add(name);
        tail = segment;
    }

    private void deleteStaleTempFiles() throws IOException {
        for (String name : io.list(dir)) {
            if (name.endsWith(SegmentName.SUFFIX + ".tmp")) {
                io.delete(dir.resolve(name));
            }
        }
    }

    private void sync(Segment segment) throws IOException {
        if (options.unsafeNoFsync()) {
            return;
        }
        long began = System.nanoTime();
        segment.file().sync();
        options.fsyncDurationNanos().accept(System.nanoTime() - began);
    }

    private void syncDirectory(Path d) throws IOException {
        if (!options.unsafeNoFsync()) {
            io.syncDirectory(d);
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("wal: closed");
        }
    }

    private void ensureWritable() {
        ensureOpen();
        if (tail == null) {
            throw new IllegalStateException("wal: readAll must be called before writing");
        }
        if (failed) {
            throw new IllegalStateException("wal: unusable after an earlier write failure; reopen it");
        }
    }

    private static WalReadResult result(WalReader.Recovered r) {
        LogState s = r.state();
        return new WalReadResult(s.metadata(), s.hardState(), s.entries(), r.tornTail());
    }
}
