package io.etcdj.server.bbolt;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A meta page's content: where the tree starts and how large the database is.
 *
 * @param pageSize  bytes per page
 * @param flags     bbolt's meta flags (unused, 0)
 * @param root      page of the root bucket's tree
 * @param sequence  the root bucket's sequence
 * @param freelist  page of the freelist, or -1 when none was written
 * @param highWater pages in use: the database is {@code highWater * pageSize} bytes
 * @param txid      the transaction that wrote this meta
 */
public record Meta(int pageSize, int flags, long root, long sequence, long freelist, long highWater, long txid) {
    private static final long FNV_OFFSET = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;

    /** Parses and validates the 64 meta bytes at {@code off}; the message says what is wrong. */
    static Meta parse(byte[] page, int off) throws BboltException {
        if (page.length < off + Layout.META_SIZE) {
            throw new BboltException("meta page is truncated");
        }
        ByteBuffer b = ByteBuffer.wrap(page, off, Layout.META_SIZE).order(ByteOrder.LITTLE_ENDIAN);
        int magic = b.getInt();
        int version = b.getInt();
        if (magic != Layout.MAGIC) {
            throw new BboltException("invalid database (no bbolt magic)");
        }
        if (version != Layout.VERSION) {
            throw new BboltException("version mismatch: bbolt file version " + version + ", expected " + Layout.VERSION);
        }
        Meta m = new Meta(b.getInt(), b.getInt(), b.getLong(), b.getLong(), b.getLong(), b.getLong(), b.getLong());
        long checksum = b.getLong();
        if (checksum != fnv64a(page, off, Layout.META_CHECKSUMMED)) {
            throw new BboltException("checksum error in meta page");
        }
        return m;
    }

    /** The 64 bytes of this meta, checksum included. */
    byte[] encode() {
        ByteBuffer b = ByteBuffer.allocate(Layout.META_SIZE).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(Layout.MAGIC).putInt(Layout.VERSION).putInt(pageSize).putInt(flags)
                .putLong(root).putLong(sequence).putLong(freelist).putLong(highWater).putLong(txid);
        byte[] out = b.array();
        b.putLong(fnv64a(out, 0, Layout.META_CHECKSUMMED));
        return out;
    }

    /** Go's hash/fnv New64a. */
    static long fnv64a(byte[] data, int off, int len) {
        long h = FNV_OFFSET;
        for (int i = off; i < off + len; i++) {
            h ^= data[i] & 0xff;
            h *= FNV_PRIME;
        }
        return h;
    }
}
