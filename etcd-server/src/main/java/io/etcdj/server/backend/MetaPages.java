package io.etcdj.server.backend;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The head of LMDB's two meta pages (pages 0 and 1 of the file): what a commit writes last and
 * what an open reads first. Only the fields needed here are read; the rest is kept as bytes.
 *
 * <p>Layout (LMDB 0.9, 64-bit, little-endian): a 16-byte page header, then {@code MDB_meta}:
 * magic {@code 0xBEEFC0DE} at 16, version at 20, address at 24, map size at 32, the free and main
 * databases' records (48 bytes each, the first one's pad holds the page size) at 40 and 88, the
 * last page used at 136 and the transaction ID at 144.
 */
record MetaPages(byte[] page0, byte[] page1) {
    /** Bytes of each meta page that LMDB reads: the page header and {@code MDB_meta}. */
    static final int BYTES = 152;
    private static final int MAGIC = 0xBEEFC0DE;
    private static final int OFF_MAGIC = 16;
    private static final int OFF_PAGE_SIZE = 40;
    private static final int OFF_LAST_PAGE = 136;
    private static final int OFF_TXN_ID = 144;

    /**
     * Reads both meta pages of {@code db} (its page size given, or read from page 0 when 0).
     * Through a {@link RandomAccessFile}, not a channel: an interrupt of the calling thread would
     * close a channel for every later sync.
     */
    static MetaPages read(RandomAccessFile db, int pageSize) throws IOException {
        byte[] p0 = readAt(db, 0);
        int size = pageSize > 0 ? pageSize : pageSize(p0);
        if (size <= 0) {
            return new MetaPages(p0, new byte[BYTES]);
        }
        return new MetaPages(p0, readAt(db, size));
    }

    private static byte[] readAt(RandomAccessFile file, long offset) throws IOException {
        byte[] page = new byte[BYTES];
        file.seek(offset);
        int done = 0;
        while (done < BYTES) {
            int n = file.read(page, done, BYTES - done);
            if (n < 0) {
                break;
            }
            done += n;
        }
        return page;
    }

    /** Writes both meta pages back into {@code db} at their places. */
    void writeTo(RandomAccessFile db) throws IOException {
        db.seek(0);
        db.write(page0);
        db.seek(pageSize());
        db.write(page1);
    }

    /** The page size recorded in page 0 (0 when page 0 is not an LMDB meta page). */
    int pageSize() {
        return pageSize(page0);
    }

    private static int pageSize(byte[] page) {
        return valid(page) ? le(page).getInt(OFF_PAGE_SIZE) : 0;
    }

    private static boolean valid(byte[] page) {
        return le(page).getInt(OFF_MAGIC) == MAGIC;
    }

    private static ByteBuffer le(byte[] page) {
        return ByteBuffer.wrap(page).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** The meta page LMDB opens on: the valid one with the higher transaction ID, or null. */
    private byte[] newest() {
        boolean v0 = valid(page0);
        boolean v1 = valid(page1);
        if (v0 && v1) {
            return txnId(page0) >= txnId(page1) ? page0 : page1;
        }
        return v0 ? page0 : v1 ? page1 : null;
    }

    private static long txnId(byte[] page) {
        return le(page).getLong(OFF_TXN_ID);
    }

    /** Whether LMDB would find a meta page to open on. */
    boolean hasValidMeta() {
        return newest() != null;
    }

    /** The transaction ID of the newest commit, or -1 when neither page is a meta page. */
    long newestTxnId() {
        byte[] p = newest();
        return p == null ? -1 : txnId(p);
    }

    /** The file length the newest commit needs: every page up to its last page used. */
    long requiredLength() {
        byte[] p = newest();
        return p == null ? 0 : (le(p).getLong(OFF_LAST_PAGE) + 1) * (long) pageSize();
    }

    boolean sameAs(MetaPages other) {
        return Arrays.equals(page0, other.page0) && Arrays.equals(page1, other.page1);
    }
}
