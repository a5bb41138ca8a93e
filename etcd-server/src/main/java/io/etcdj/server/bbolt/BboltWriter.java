package io.etcdj.server.bbolt;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Writes a new bbolt file bucket by bucket, streaming: keys arrive in order and each leaf page
 * is written as soon as it is full, so only one page of data and the first key of every page
 * are held in memory. The result is what bbolt itself would accept and check clean
 * ({@code tx.Check}): pages 0 and 1 are the metas, page 2 an empty freelist, then the buckets'
 * trees bottom-up, then the root bucket's tree; every page up to the high-water mark is used.
 *
 * <p>Usage: {@link #beginBucket} (names in ascending byte order), {@link #put} (keys in
 * ascending order), {@link #endBucket}, ..., then {@link #finish}. Only top-level buckets are
 * written (etcd nests none); small ones inline, as bbolt writes them.
 */
public final class BboltWriter implements AutoCloseable {
    public static final int DEFAULT_PAGE_SIZE = 4096;
    private static final long FIRST_DATA_PAGE = 3;

    private final FileChannel out;
    private final Path file;
    private final int pageSize;
    private long nextPage = FIRST_DATA_PAGE;

    private final List<BucketRoot> buckets = new ArrayList<>();
    private final PageBuilder leaf;
    private byte[] bucketName;
    private byte[] lastKey;
    private byte[] lastBucket;
    private List<PageRef> leaves;

    /** A written page and the first key it holds: what its parent's branch element records. */
    private record PageRef(byte[] key, long pgid) {
    }

    /** A finished top-level bucket: its name and the 16-byte header pointing at its tree. */
    private record BucketRoot(byte[] name, byte[] header) {
    }

    private BboltWriter(Path file, FileChannel out, int pageSize) {
        this.file = file;
        this.out = out;
        this.pageSize = pageSize;
        this.leaf = new PageBuilder(Layout.LEAF_PAGE);
    }

    /** Creates {@code file} (which must not exist) with pages of {@code pageSize} bytes. */
    public static BboltWriter create(Path file, int pageSize) throws BboltException {
        if (pageSize < 1024 || Integer.bitCount(pageSize) != 1) {
            throw new BboltException("invalid page size " + pageSize);
        }
        try {
            return new BboltWriter(file, FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE), pageSize);
        } catch (IOException e) {
            throw new BboltException("cannot create " + file + ": " + e.getMessage(), e);
        }
    }

    public void beginBucket(byte[] name) throws BboltException {
        if (bucketName != null) {
            throw new IllegalStateException("bucket " + new String(bucketName) + " is still open");
        }
        checkKey(name);
        if (lastBucket != null && Arrays.compareUnsigned(lastBucket, name) >= 0) {
            throw new BboltException("buckets must be written in ascending order: " + new String(name)
                    + " after " + new String(lastBucket));
        }
        bucketName = name.clone();
        lastBucket = bucketName;
        lastKey = null;
        leaves = new ArrayList<>();
    }

    public void put(byte[] key, byte[] value) throws BboltException {
        if (bucketName == null) {
            throw new IllegalStateException("no bucket is open");
        }
        checkKey(key);
        if (lastKey != null && Arrays.compareUnsigned(lastKey, key) >= 0) {
            throw new BboltException("keys of bucket " + new String(bucketName) + " must be written in ascending order");
        }
        lastKey = key.clone();
        if (!leaf.isEmpty() && leaf.sizeWith(key.length, value.length) > pageSize) {
            leaves.add(leaf.flush());
        }
        leaf.add(0, key, value);
    }

    /**
     * Ends the bucket. A small bucket (one leaf of at most a quarter page, bbolt's own rule) is
     * stored inline in its header, as bbolt stores it; a larger one gets its last leaf and its
     * branch pages written, and its header points at its root page.
     */
    public void endBucket() throws BboltException {
        byte[] header;
        if (leaves.isEmpty() && leaf.size() <= pageSize / 4) {
            header = leaf.inline();
        } else {
            if (!leaf.isEmpty()) {
                leaves.add(leaf.flush());
            }
            long root = writeBranches(leaves);
            header = ByteBuffer.allocate(Layout.BUCKET_HEADER).order(ByteOrder.LITTLE_ENDIAN)
                    .putLong(root).putLong(0).array();
        }
        buckets.add(new BucketRoot(bucketName, header));
        bucketName = null;
    }

    /** Writes the root bucket, the freelist and both metas; the file is complete afterwards. */
    public void finish() throws BboltException {
        if (bucketName != null) {
            throw new IllegalStateException("bucket " + new String(bucketName) + " is still open");
        }
        List<PageRef> rootLeaves = new ArrayList<>();
        for (BucketRoot bucket : buckets) {
            if (!leaf.isEmpty() && leaf.sizeWith(bucket.name().length, Layout.BUCKET_HEADER) > pageSize) {
                rootLeaves.add(leaf.flush());
            }
            leaf.add(Layout.BUCKET_LEAF_FLAG, bucket.name(), bucket.header());
        }
        rootLeaves.add(leaf.flush());
        long root = writeBranches(rootLeaves);
        long highWater = nextPage;

        ByteBuffer freelist = ByteBuffer.allocate(pageSize).order(ByteOrder.LITTLE_ENDIAN);
        freelist.putLong(2).putShort((short) Layout.FREELIST_PAGE).putShort((short) 0).putInt(0);
        write(2, freelist.array());
        // bbolt's fresh database: meta 0 holds transaction 0, meta 1 transaction 1, both valid
        for (int i = 0; i < 2; i++) {
            Meta meta = new Meta(pageSize, 0, root, 0, 2, highWater, i);
            ByteBuffer page = ByteBuffer.allocate(pageSize).order(ByteOrder.LITTLE_ENDIAN);
            page.putLong(i).putShort((short) Layout.META_PAGE).putShort((short) 0).putInt(0).put(meta.encode());
            write(i, page.array());
        }
        try {
            out.force(true);
        } catch (IOException e) {
            throw new BboltException("cannot sync " + file + ": " + e.getMessage(), e);
        }
    }

    /** Builds the branch levels over {@code children} until one page remains; returns its number. */
    private long writeBranches(List<PageRef> children) throws BboltException {
        List<PageRef> level = children;
        while (level.size() > 1) {
            List<PageRef> parents = new ArrayList<>();
            PageBuilder branch = new PageBuilder(Layout.BRANCH_PAGE);
            for (PageRef child : level) {
                if (!branch.isEmpty() && branch.sizeWith(child.key().length, 0) > pageSize) {
                    parents.add(branch.flush());
                }
                branch.addBranch(child.key(), child.pgid());
            }
            parents.add(branch.flush());
            level = parents;
        }
        return level.get(0).pgid();
    }

    private static void checkKey(byte[] key) throws BboltException {
        if (key.length == 0) {
            throw new BboltException("key required");
        }
        if (key.length > Layout.MAX_KEY_SIZE) {
            throw new BboltException("key too large (" + key.length + " bytes, bbolt allows " + Layout.MAX_KEY_SIZE + ")");
        }
    }

    private void write(long pgid, byte[] page) throws BboltException {
        ByteBuffer b = ByteBuffer.wrap(page);
        try {
            while (b.hasRemaining()) {
                out.write(b, pgid * pageSize + b.position());
            }
        } catch (IOException e) {
            throw new BboltException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() throws BboltException {
        try {
            out.close();
        } catch (IOException e) {
            throw new BboltException("cannot close " + file + ": " + e.getMessage(), e);
        }
    }

    /** Collects the elements of one page, then lays them out and writes them at the next free page. */
    private final class PageBuilder {
        private final int type;
        private final List<byte[]> keys = new ArrayList<>();
        private final List<byte[]> values = new ArrayList<>();
        private final List<Long> extras = new ArrayList<>();
        private long size = Layout.PAGE_HEADER;

        PageBuilder(int type) {
            this.type = type;
        }

        boolean isEmpty() {
            return keys.isEmpty();
        }

        long size() {
            return size;
        }

        long sizeWith(int keyLength, int valueLength) {
            return size + Layout.ELEMENT + keyLength + valueLength;
        }

        void add(int flags, byte[] key, byte[] value) {
            keys.add(key);
            values.add(value);
            extras.add((long) flags);
            size = sizeWith(key.length, value.length);
        }

        void addBranch(byte[] key, long child) {
            keys.add(key);
            values.add(new byte[0]);
            extras.add(child);
            size = sizeWith(key.length, 0);
        }

        /** Writes the page (with overflow pages when its content needs more than one). */
        PageRef flush() throws BboltException {
            long pages = (size + pageSize - 1) / pageSize;
            if (pages * pageSize > Integer.MAX_VALUE) {
                throw new BboltException("value too large for one bbolt page run (" + size + " bytes)");
            }
            long pgid = nextPage;
            ByteBuffer b = ByteBuffer.allocate((int) (pages * pageSize)).order(ByteOrder.LITTLE_ENDIAN);
            layOut(b, 0, pgid, pages - 1);
            write(pgid, b.array());
            nextPage += pages;
            return reset(pgid);
        }

        /** The bucket header of an inline bucket: root 0, sequence 0, then this leaf as a page (id 0). */
        byte[] inline() {
            ByteBuffer b = ByteBuffer.allocate(Layout.BUCKET_HEADER + (int) size).order(ByteOrder.LITTLE_ENDIAN);
            b.putLong(0).putLong(0);
            layOut(b, Layout.BUCKET_HEADER, 0, 0);
            reset(0);
            return b.array();
        }

        /** Writes the header and elements at {@code base} of {@code b}; positions are relative to each element. */
        private void layOut(ByteBuffer b, int base, long pgid, long overflow) {
            b.putLong(base, pgid).putShort(base + 8, (short) type).putShort(base + 10, (short) keys.size())
                    .putInt(base + 12, (int) overflow);
            int data = base + Layout.PAGE_HEADER + keys.size() * Layout.ELEMENT;
            for (int i = 0; i < keys.size(); i++) {
                int el = base + Layout.PAGE_HEADER + i * Layout.ELEMENT;
                byte[] k = keys.get(i);
                byte[] v = values.get(i);
                if (type == Layout.LEAF_PAGE) {
                    b.putInt(el, (int) (long) extras.get(i)).putInt(el + 4, data - el)
                            .putInt(el + 8, k.length).putInt(el + 12, v.length);
                } else {
                    b.putInt(el, data - el).putInt(el + 4, k.length).putLong(el + 8, extras.get(i));
                }
                b.put(data, k);
                b.put(data + k.length, v);
                data += k.length + v.length;
            }
        }

        private PageRef reset(long pgid) {
            // an empty page (an empty bucket's only leaf) is never a branch's child, so its key is unused
            PageRef ref = new PageRef(keys.isEmpty() ? new byte[0] : keys.get(0).clone(), pgid);
            keys.clear();
            values.clear();
            extras.clear();
            size = Layout.PAGE_HEADER;
            return ref;
        }
    }
}
