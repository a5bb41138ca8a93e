package io.etcdj.server.bbolt;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

/**
 * Reads a bbolt file without bbolt, read-only and defensively: every page number, element and
 * length is checked against the file before it is used, meta pages must carry their checksum,
 * and a tree deeper than any real one (a loop in a corrupted file) is refused. Pages are read
 * one at a time, so a file of any size is walked in little memory.
 */
public final class BboltReader implements AutoCloseable {
    /** Far deeper than any real tree (4 KiB pages give a depth of 5 or 6 for gigabytes). */
    private static final int MAX_DEPTH = 64;
    private static final int[] COMMON_PAGE_SIZES = {4096, 8192, 16384, 32768, 65536};

    private final FileChannel channel;
    private final long limit;
    private final Meta meta;

    /**
     * What a walk of a bucket sees: each key and value in key order; {@code bucket} marks a nested
     * bucket. {@code E} is what the visitor itself may throw (a caller's own checked exception).
     */
    public interface Visitor<E extends Exception> {
        void visit(byte[] key, byte[] value, boolean bucket) throws BboltException, E;
    }

    private BboltReader(FileChannel channel, long limit, Meta meta) {
        this.channel = channel;
        this.limit = limit;
        this.meta = meta;
    }

    /** Opens the whole file as a bbolt database. */
    public static BboltReader open(Path file) throws BboltException {
        return open(file, -1);
    }

    /**
     * Opens the first {@code length} bytes of {@code file} (a snapshot's trailer excluded), or the
     * whole file when {@code length} is negative.
     */
    public static BboltReader open(Path file, long length) throws BboltException {
        FileChannel ch;
        try {
            ch = FileChannel.open(file, StandardOpenOption.READ);
        } catch (IOException e) {
            throw new BboltException("cannot open " + file + ": " + e.getMessage(), e);
        }
        try {
            long fileSize;
            try {
                fileSize = ch.size();
            } catch (IOException e) {
                throw new BboltException("cannot stat " + file + ": " + e.getMessage(), e);
            }
            long limit = length < 0 ? fileSize : Math.min(length, fileSize);
            Meta meta = chooseMeta(ch, limit);
            long needed = meta.highWater() * meta.pageSize();
            if (meta.highWater() < 3 || needed > limit || needed < 0) {
                throw new BboltException("file is truncated: " + limit + " bytes, the database needs "
                        + Math.max(needed, 0) + " (" + meta.highWater() + " pages of " + meta.pageSize() + ")");
            }
            return new BboltReader(ch, limit, meta);
        } catch (BboltException | RuntimeException e) {
            closeQuietly(ch);
            throw e;
        }
    }

    /** Is this file bbolt? Its first meta page carries bbolt's magic (LMDB's carries its own). */
    public static boolean looksLikeBbolt(Path file) {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer b = ByteBuffer.allocate(Layout.PAGE_HEADER + 4).order(ByteOrder.LITTLE_ENDIAN);
            while (b.hasRemaining() && ch.read(b, b.position()) > 0) {
                // keep reading until the magic is in
            }
            return !b.hasRemaining() && b.getInt(Layout.PAGE_HEADER) == Layout.MAGIC;
        } catch (IOException e) {
            return false;
        }
    }

    /** bbolt's rule: both metas are tried, the valid one with the higher transaction wins. */
    private static Meta chooseMeta(FileChannel ch, long limit) throws BboltException {
        if (limit < Layout.PAGE_HEADER + Layout.META_SIZE) {
            throw new BboltException("file is truncated: " + limit + " bytes is smaller than a meta page");
        }
        Meta m0 = null;
        BboltException err0 = null;
        try {
            m0 = Meta.parse(readAt(ch, 0, Layout.PAGE_HEADER + Layout.META_SIZE), Layout.PAGE_HEADER);
            checkPageSize(m0.pageSize());
        } catch (BboltException e) {
            m0 = null;
            err0 = e;
        }
        Meta m1 = null;
        int[] sizes = m0 != null ? new int[] {m0.pageSize()} : COMMON_PAGE_SIZES;
        for (int size : sizes) {
            if (size + Layout.PAGE_HEADER + Layout.META_SIZE > limit) {
                continue;
            }
            try {
                Meta m = Meta.parse(readAt(ch, size, Layout.PAGE_HEADER + Layout.META_SIZE), Layout.PAGE_HEADER);
                if (m.pageSize() == size) {
                    m1 = m;
                    break;
                }
            } catch (BboltException e) {
                // the other meta may still be good
            }
        }
        if (m0 == null && m1 == null) {
            throw new BboltException(err0.getMessage().startsWith("invalid database")
                    ? "not a bbolt database (no valid meta page)" : "both meta pages are invalid: " + err0.getMessage());
        }
        if (m0 == null) {
            return m1;
        }
        return m1 == null || m0.txid() >= m1.txid() ? m0 : m1;
    }

    private static void checkPageSize(int size) throws BboltException {
        if (size < 512 || size > (1 << 20) || Integer.bitCount(size) != 1) {
            throw new BboltException("invalid page size " + size + " in meta page");
        }
    }

    public Meta meta() {
        return meta;
    }

    /** The database's size as bbolt reports it (tx.Size): the pages in use. */
    public long size() {
        return meta.highWater() * meta.pageSize();
    }

    /** Walks the top-level buckets (every element of the root tree) in key order. */
    public <E extends Exception> void forEachTopLevel(Visitor<E> visitor) throws BboltException, E {
        walkPage(meta.root(), visitor, 0, new HashSet<>());
    }

    /**
     * Walks the bucket whose header is {@code value} (as a {@link Visitor} saw it with
     * {@code bucket == true}): a page of its own, or an inline page inside the value.
     */
    public <E extends Exception> void forEachInBucket(byte[] value, Visitor<E> visitor) throws BboltException, E {
        if (value.length < Layout.BUCKET_HEADER) {
            throw new BboltException("bucket header is " + value.length + " bytes, expected at least " + Layout.BUCKET_HEADER);
        }
        long root = ByteBuffer.wrap(value).order(ByteOrder.LITTLE_ENDIAN).getLong(0);
        if (root != 0) {
            walkPage(root, visitor, 1, new HashSet<>());
            return;
        }
        byte[] inline = Arrays.copyOfRange(value, Layout.BUCKET_HEADER, value.length);
        if (inline.length < Layout.PAGE_HEADER) {
            throw new BboltException("inline bucket is truncated");
        }
        int flags = ByteBuffer.wrap(inline).order(ByteOrder.LITTLE_ENDIAN).getShort(8) & 0xffff;
        if (flags != Layout.LEAF_PAGE) {
            throw new BboltException("inline bucket page has flags 0x" + Integer.toHexString(flags) + ", expected a leaf");
        }
        walkLeaf(-1, inline, visitor);
    }

    /**
     * Walks one tree. {@code seen} holds the pages already walked in it: a page reached twice (a
     * corrupted file whose branches share or loop) is refused at once rather than walked over
     * and over, which the depth limit alone would allow exponentially often.
     */
    private <E extends Exception> void walkPage(long pgid, Visitor<E> visitor, int depth, Set<Long> seen)
            throws BboltException, E {
        if (depth > MAX_DEPTH) {
            throw new BboltException("page " + pgid + ": tree deeper than " + MAX_DEPTH + " levels (a loop in a corrupted file)");
        }
        if (!seen.add(pgid)) {
            throw new BboltException("page " + pgid + ": reached twice in one tree (corrupted)");
        }
        byte[] page = readPage(pgid);
        int flags = u16(page, 8);
        if (flags == Layout.LEAF_PAGE) {
            walkLeaf(pgid, page, visitor);
        } else if (flags == Layout.BRANCH_PAGE) {
            int count = u16(page, 10);
            checkElements(pgid, page, count);
            for (int i = 0; i < count; i++) {
                int el = Layout.PAGE_HEADER + i * Layout.ELEMENT;
                long child = i64(page, el + 8);
                walkPage(child, visitor, depth + 1, seen);
            }
        } else {
            throw new BboltException("page " + pgid + ": invalid page type 0x" + Integer.toHexString(flags)
                    + " where a branch or leaf was expected");
        }
    }

    private <E extends Exception> void walkLeaf(long pgid, byte[] page, Visitor<E> visitor) throws BboltException, E {
        int count = u16(page, 10);
        checkElements(pgid, page, count);
        for (int i = 0; i < count; i++) {
            int el = Layout.PAGE_HEADER + i * Layout.ELEMENT;
            int flags = i32(page, el);
            long start = el + u32(page, el + 4);
            long ksize = u32(page, el + 8);
            long vsize = u32(page, el + 12);
            if (start + ksize + vsize > page.length) {
                throw new BboltException(where(pgid) + "element " + i + " runs past the end of its page");
            }
            byte[] key = Arrays.copyOfRange(page, (int) start, (int) (start + ksize));
            byte[] value = Arrays.copyOfRange(page, (int) (start + ksize), (int) (start + ksize + vsize));
            visitor.visit(key, value, (flags & Layout.BUCKET_LEAF_FLAG) != 0);
        }
    }

    private static void checkElements(long pgid, byte[] page, int count) throws BboltException {
        if (Layout.PAGE_HEADER + (long) count * Layout.ELEMENT > page.length) {
            throw new BboltException(where(pgid) + count + " elements do not fit in the page");
        }
    }

    private static String where(long pgid) {
        return pgid < 0 ? "inline bucket: " : "page " + pgid + ": ";
    }

    /** Reads page {@code pgid} with its overflow pages, after checking it lies inside the database. */
    private byte[] readPage(long pgid) throws BboltException {
        if (pgid < 2 || pgid >= meta.highWater()) {
            throw new BboltException("page " + pgid + ": out of range (the database has " + meta.highWater() + " pages)");
        }
        long pos = pgid * meta.pageSize();
        byte[] header = readAt(channel, pos, Layout.PAGE_HEADER);
        long id = i64(header, 0);
        if (id != pgid) {
            throw new BboltException("page " + pgid + ": header says page " + id + " (corrupted)");
        }
        long overflow = u32(header, 12);
        long end = pgid + 1 + overflow;
        if (end > meta.highWater() || end * meta.pageSize() > limit || (1 + overflow) * meta.pageSize() > Integer.MAX_VALUE) {
            throw new BboltException("page " + pgid + ": its " + overflow + " overflow pages run past the end of the database");
        }
        return readAt(channel, pos, (int) ((1 + overflow) * meta.pageSize()));
    }

    private static byte[] readAt(FileChannel ch, long pos, int len) throws BboltException {
        ByteBuffer b = ByteBuffer.allocate(len);
        try {
            while (b.hasRemaining()) {
                int n = ch.read(b, pos + b.position());
                if (n < 0) {
                    throw new BboltException("file is truncated: cannot read " + len + " bytes at offset " + pos);
                }
            }
        } catch (IOException e) {
            throw new BboltException("read failed at offset " + pos + ": " + e.getMessage(), e);
        }
        return b.array();
    }

    private static int u16(byte[] b, int off) {
        return (b[off] & 0xff) | (b[off + 1] & 0xff) << 8;
    }

    private static int i32(byte[] b, int off) {
        return (b[off] & 0xff) | (b[off + 1] & 0xff) << 8 | (b[off + 2] & 0xff) << 16 | (b[off + 3] & 0xff) << 24;
    }

    private static long u32(byte[] b, int off) {
        return i32(b, off) & 0xffffffffL;
    }

    private static long i64(byte[] b, int off) {
        return (u32(b, off) & 0xffffffffL) | u32(b, off + 4) << 32;
    }

    private static void closeQuietly(FileChannel ch) {
        try {
            ch.close();
        } catch (IOException ignored) {
            // already failing
        }
    }

    @Override
    public void close() {
        closeQuietly(channel);
    }
}
