package io.etcdj.server.backend;

/**
 * One LMDB transaction, read-only or the write one, used by one thread at a time (LMDB's rule).
 * Keys and values are byte arrays at this API: a key is copied into native memory the transaction
 * owns, a value read is copied out of the map into a new array, and a value written is copied
 * straight into the space {@code MDB_RESERVE} gives it in the page. Nothing native is allocated
 * per call, and what the transaction owns is freed when it ends, after LMDB last used it.
 */
final class LmdbTxn implements AutoCloseable {
    /** The scratch block: the key's {@code MDB_val}, the data's, and a pointer-sized out slot. */
    private static final int KEY_VAL = 0;
    private static final int DATA_VAL = Lmdb.VAL_BYTES;
    private static final int OUT = 2 * Lmdb.VAL_BYTES;
    private static final int SCRATCH_BYTES = OUT + 8;
    /** LMDB's largest key (MDB_MAXKEYSIZE in its default build); a longer one grows the buffer and LMDB refuses it. */
    private static final int KEY_CAPACITY = 512;

    /** {@code MDB_txn *}, or 0 once committed or aborted. */
    private long txn;
    private final boolean readOnly;
    private long scratch;
    private long keyBuffer;
    private int keyCapacity;

    private LmdbTxn(long txn, boolean readOnly, long scratch) {
        this.txn = txn;
        this.readOnly = readOnly;
        this.scratch = scratch;
        this.keyBuffer = scratch + SCRATCH_BYTES;
        this.keyCapacity = KEY_CAPACITY;
    }

    static LmdbTxn begin(long env, boolean readOnly) {
        long scratch = Lmdb.MEMORY.allocateMemory(SCRATCH_BYTES + KEY_CAPACITY, true);
        int rc = Lmdb.txnBegin(env, readOnly ? Lmdb.RDONLY : 0, scratch + OUT);
        if (rc != Lmdb.SUCCESS) {
            Lmdb.MEMORY.freeMemory(scratch);
            Lmdb.check(rc, "mdb_txn_begin");
        }
        return new LmdbTxn(Lmdb.MEMORY.getAddress(scratch + OUT), readOnly, scratch);
    }

    boolean isReadOnly() {
        return readOnly;
    }

    /** The transaction's ID: a read transaction's is that of the commit it sees. */
    long id() {
        return Lmdb.txnId(handle());
    }

    int openDbi(long name) {
        Lmdb.check(Lmdb.dbiOpen(handle(), name, Lmdb.CREATE, scratch + OUT), "mdb_dbi_open");
        return Lmdb.MEMORY.getInt(scratch + OUT);
    }

    /** The value stored under {@code key}, or null. */
    byte[] get(int dbi, byte[] key) {
        long t = handle();
        setKey(key);
        int rc = Lmdb.get(t, dbi, scratch + KEY_VAL, scratch + DATA_VAL);
        if (rc == Lmdb.NOTFOUND) {
            return null;
        }
        Lmdb.check(rc, "mdb_get");
        return copyOut(scratch + DATA_VAL);
    }

    void put(int dbi, byte[] key, byte[] value) {
        long t = handle();
        setKey(key);
        Lmdb.MEMORY.putLong(scratch + DATA_VAL + Lmdb.VAL_SIZE, value.length);
        Lmdb.MEMORY.putAddress(scratch + DATA_VAL + Lmdb.VAL_DATA, 0L);
        Lmdb.check(Lmdb.put(t, dbi, scratch + KEY_VAL, scratch + DATA_VAL, Lmdb.RESERVE), "mdb_put");
        if (value.length > 0) {
            Lmdb.MEMORY.putByteArray(Lmdb.MEMORY.getAddress(scratch + DATA_VAL + Lmdb.VAL_DATA), value, 0, value.length);
        }
    }

    /** Removes {@code key}; false when it was not there. */
    boolean delete(int dbi, byte[] key) {
        long t = handle();
        setKey(key);
        int rc = Lmdb.del(t, dbi, scratch + KEY_VAL);
        if (rc == Lmdb.NOTFOUND) {
            return false;
        }
        Lmdb.check(rc, "mdb_del");
        return true;
    }

    /** Visits the pairs from {@code from} on ({@code null}: from the first) in key order, until the visitor returns false. */
    void forEach(int dbi, byte[] from, ReadTx.Visitor visitor) {
        long t = handle();
        Lmdb.check(Lmdb.cursorOpen(t, dbi, scratch + OUT), "mdb_cursor_open");
        long cursor = Lmdb.MEMORY.getAddress(scratch + OUT);
        try {
            int op = Lmdb.FIRST;
            if (from != null) {
                setKey(from);
                op = Lmdb.SET_RANGE;
            }
            while (true) {
                int rc = Lmdb.cursorGet(cursor, scratch + KEY_VAL, scratch + DATA_VAL, op);
                if (rc == Lmdb.NOTFOUND) {
                    return;
                }
                Lmdb.check(rc, "mdb_cursor_get");
                if (!visitor.visit(copyOut(scratch + KEY_VAL), copyOut(scratch + DATA_VAL))) {
                    return;
                }
                op = Lmdb.NEXT;
            }
        } finally {
            Lmdb.cursorClose(cursor);
        }
    }

    LmdbStat stat(int dbi) {
        Lmdb.check(Lmdb.stat(handle(), dbi, keyBuffer), "mdb_stat"); // the key buffer is larger than an MDB_stat
        return LmdbStat.read(keyBuffer);
    }

    /** Commits; the transaction is over whether or not the commit succeeded (LMDB frees it either way). */
    void commit() {
        long t = handle();
        txn = 0;
        Lmdb.check(Lmdb.txnCommit(t), "mdb_txn_commit");
    }

    /** Aborts the transaction unless it was committed, and frees what it owns. Idempotent. */
    @Override
    public void close() {
        if (txn != 0) {
            long t = txn;
            txn = 0;
            Lmdb.txnAbort(t);
        }
        if (scratch != 0) {
            freeGrownKeyBuffer();
            Lmdb.MEMORY.freeMemory(scratch);
            scratch = 0;
            keyBuffer = 0;
        }
    }

    private long handle() {
        if (txn == 0) {
            throw new IllegalStateException("LMDB transaction is over");
        }
        return txn;
    }

    private void setKey(byte[] key) {
        if (key.length > keyCapacity) {
            long grown = Lmdb.MEMORY.allocateMemory(key.length, false);
            freeGrownKeyBuffer();
            keyBuffer = grown;
            keyCapacity = key.length;
        }
        Lmdb.MEMORY.putByteArray(keyBuffer, key, 0, key.length);
        Lmdb.MEMORY.putLong(scratch + KEY_VAL + Lmdb.VAL_SIZE, key.length);
        Lmdb.MEMORY.putAddress(scratch + KEY_VAL + Lmdb.VAL_DATA, keyBuffer);
    }

    /** Frees the key buffer if a long key replaced the one inside the scratch block. */
    private void freeGrownKeyBuffer() {
        if (keyBuffer != scratch + SCRATCH_BYTES) {
            Lmdb.MEMORY.freeMemory(keyBuffer);
        }
    }

    private static byte[] copyOut(long val) {
        int size = (int) Lmdb.MEMORY.getLong(val + Lmdb.VAL_SIZE);
        byte[] copy = new byte[size];
        if (size > 0) {
            Lmdb.MEMORY.getByteArray(Lmdb.MEMORY.getAddress(val + Lmdb.VAL_DATA), copy, 0, size);
        }
        return copy;
    }
}
