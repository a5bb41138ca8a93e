package io.etcdj.server.mvcc;

/**
 * A point in the store's history: the main revision of a write transaction and the position of
 * one change inside it. In the backend's key bucket a revision is 17 bytes (main, '_', sub), plus
 * a trailing 't' when the change is a deletion (tombstone), as etcd lays it out.
 */
public record Revision(long main, long sub) implements Comparable<Revision> {
    static final int BYTES = 17;
    private static final byte TOMBSTONE = 't';

    public byte[] toBytes(boolean tombstone) {
        byte[] b = new byte[tombstone ? BYTES + 1 : BYTES];
        putLong(b, 0, main);
        b[8] = '_';
        putLong(b, 9, sub);
        if (tombstone) {
            b[BYTES] = TOMBSTONE;
        }
        return b;
    }

    /** The smallest revision-key of a main revision, to start a backend scan there. */
    static byte[] startKey(long main) {
        return new Revision(main, 0).toBytes(false);
    }

    static Revision fromBytes(byte[] b) {
        return new Revision(getLong(b, 0), getLong(b, 9));
    }

    static boolean isTombstone(byte[] b) {
        return b.length == BYTES + 1 && b[BYTES] == TOMBSTONE;
    }

    @Override
    public int compareTo(Revision o) {
        int c = Long.compare(main, o.main);
        return c != 0 ? c : Long.compare(sub, o.sub);
    }

    private static void putLong(byte[] b, int off, long v) {
        for (int i = 7; i >= 0; i--) {
            b[off + i] = (byte) v;
            v >>>= 8;
        }
    }

    private static long getLong(byte[] b, int off) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (b[off + i] & 0xff);
        }
        return v;
    }
}
