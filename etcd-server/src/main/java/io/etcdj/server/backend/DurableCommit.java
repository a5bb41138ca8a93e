package io.etcdj.server.backend;

import io.etcdj.server.fileutil.Fsync;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.zip.CRC32C;

/**
 * The record of the backend's last durable commit: the two LMDB meta pages as they stood when
 * {@link Backend#sync} had made that commit's pages durable, kept in {@code db-durable} beside
 * the backend file.
 *
 * <p>Why it exists: commits are made without an fsync (LMDB's {@code MDB_NOSYNC}) and made
 * durable every batch interval. Between two syncs the kernel may write a newer meta page to disk
 * before the data pages it points to (dirty pages are written back in any order), so after a
 * power cut LMDB would open on pages that never reached the disk. An open after such a stop
 * writes the recorded meta pages back ({@link #restore}), so LMDB opens on the durable commit;
 * the backend keeps that commit's pages from being reused until the next record is durable (a
 * pinned read transaction), so they are all still there. The WAL replays what came after.
 *
 * <p>The file has two slots written in turn, each with a sequence number and a CRC32C: a torn
 * write of one leaves the other. A file with no valid slot means the backend file was created
 * but never made durable. No record file at all means the backend file was last closed by a
 * tool or a version that synced it before closing (or after a defragment, a restore or a
 * snapshot install, which sync the new file before renaming it in): it is taken as it is.
 */
final class DurableCommit implements AutoCloseable {
    static final String SUFFIX = "-durable";
    private static final int SLOT = 512;
    private static final int MAGIC = 0x454a4443; // "EJDC"
    private static final int VERSION = 1;

    /** Not a channel: an interrupt of a syncing thread would close a channel for every later sync. */
    private final RandomAccessFile file;
    private long seq;

    private DurableCommit(RandomAccessFile file, long seq) {
        this.file = file;
        this.seq = seq;
    }

    static Path fileFor(Path backendFile) {
        return backendFile.resolveSibling(backendFile.getFileName() + SUFFIX);
    }

    /** Opens an existing record file. */
    static DurableCommit open(Path path) throws IOException {
        RandomAccessFile f = new RandomAccessFile(path.toFile(), "rw");
        try {
            return new DurableCommit(f, load(f).map(Slot::seq).orElse(0L));
        } catch (IOException | RuntimeException e) {
            f.close();
            throw e;
        }
    }

    /**
     * Creates the record file whole (written aside, synced, renamed in, directory synced): with
     * {@code metas} as its durable commit, or with no valid slot for a backend file about to be
     * created ({@code metas} null). A power cut never leaves a partial or empty record for a file
     * that holds data.
     */
    static void create(Path path, MetaPages metas) throws IOException {
        Path tmp = path.resolveSibling(path.getFileName() + ".tmp");
        Files.deleteIfExists(tmp);
        try (RandomAccessFile f = new RandomAccessFile(tmp.toFile(), "rw")) {
            f.write(new byte[2 * SLOT]);
            if (metas != null) {
                new DurableCommit(f, 0).record(metas);
            }
            f.getFD().sync();
        }
        Fsync.replace(tmp, path);
    }

    /** Records {@code metas} as the durable commit, in the slot not holding the newest record. */
    void record(MetaPages metas) throws IOException {
        long next = seq + 1;
        ByteBuffer buf = ByteBuffer.allocate(SLOT);
        buf.putInt(MAGIC).putInt(VERSION).putLong(next).put(metas.page0()).put(metas.page1());
        CRC32C crc = new CRC32C();
        crc.update(buf.array(), 0, buf.position());
        buf.putInt((int) crc.getValue());
        file.seek((next % 2) * SLOT);
        file.write(buf.array());
        file.getFD().sync();
        seq = next;
    }

    @Override
    public void close() throws IOException {
        file.close();
    }

    private record Slot(long seq, MetaPages metas) {
    }

    private static Optional<Slot> load(RandomAccessFile f) throws IOException {
        Slot best = null;
        for (int i = 0; i < 2; i++) {
            byte[] slot = new byte[SLOT];
            f.seek((long) i * SLOT);
            int done = 0;
            for (int n; done < SLOT && (n = f.read(slot, done, SLOT - done)) >= 0; ) {
                done += n;
            }
            Slot s = parse(slot);
            if (s != null && (best == null || s.seq() > best.seq())) {
                best = s;
            }
        }
        return Optional.ofNullable(best);
    }

    private static Slot parse(byte[] slot) {
        ByteBuffer buf = ByteBuffer.wrap(slot);
        if (buf.getInt() != MAGIC || buf.getInt() != VERSION) {
            return null;
        }
        long seq = buf.getLong();
        byte[] p0 = new byte[MetaPages.BYTES];
        byte[] p1 = new byte[MetaPages.BYTES];
        buf.get(p0).get(p1);
        CRC32C crc = new CRC32C();
        crc.update(slot, 0, buf.position());
        if (buf.getInt() != (int) crc.getValue()) {
            return null;
        }
        return new Slot(seq, new MetaPages(p0, p1));
    }

    /** What {@link #restore} found and did, for the log. */
    enum Outcome {
        /** No record file: the backend file is taken as it is. */
        UNRECORDED,
        /** The backend file's meta pages are the recorded ones: it was stopped cleanly. */
        CLEAN,
        /** Later commits that were never made durable were dropped; the WAL replays them. */
        ROLLED_BACK,
        /** The backend file was created but never made durable: it was removed, to start anew. */
        DISCARDED
    }

    /**
     * Before LMDB opens {@code backendFile}: puts back the meta pages of the last durable commit
     * if the file's differ, and refuses a file too short for that commit (pages that never
     * reached the disk would crash the process when LMDB maps them).
     */
    static Outcome restore(Path backendFile) throws IOException {
        Path recordFile = fileFor(backendFile);
        if (!Files.exists(recordFile)) {
            MetaPages current = checkLength(backendFile, null);
            // taken as it is, and recorded so from now on, before any commit can change it
            create(recordFile, current);
            return Outcome.UNRECORDED;
        }
        Optional<Slot> slot;
        try (RandomAccessFile f = new RandomAccessFile(recordFile.toFile(), "r")) {
            slot = load(f);
        }
        if (slot.isEmpty()) {
            Fsync.delete(backendFile);
            Files.deleteIfExists(backendFile.resolveSibling(backendFile.getFileName() + "-lock"));
            return Outcome.DISCARDED;
        }
        MetaPages durable = slot.get().metas();
        try (RandomAccessFile db = new RandomAccessFile(backendFile.toFile(), "rw")) {
            MetaPages current = MetaPages.read(db, durable.pageSize());
            if (current.sameAs(durable)) {
                checkLength(backendFile, durable);
                return Outcome.CLEAN;
            }
            checkLength(backendFile, durable);
            durable.writeTo(db);
            db.getFD().sync();
            return Outcome.ROLLED_BACK;
        }
    }

    /** Refuses a file too short for {@code metas} (read from the file when null), and returns the metas checked. */
    private static MetaPages checkLength(Path backendFile, MetaPages metas) throws IOException {
        long length = Files.size(backendFile);
        if (metas == null) {
            try (RandomAccessFile db = new RandomAccessFile(backendFile.toFile(), "r")) {
                metas = MetaPages.read(db, 0);
            }
            if (!metas.hasValidMeta()) {
                throw new BackendException("backend file " + backendFile + " is damaged: it has no valid LMDB meta page");
            }
        }
        long need = metas.requiredLength();
        if (length < need) {
            throw new BackendException("backend file " + backendFile + " is damaged: it is " + length
                    + " bytes long, its last durable commit (transaction " + metas.newestTxnId() + ") needs "
                    + need + " bytes");
        }
        return metas;
    }
}
