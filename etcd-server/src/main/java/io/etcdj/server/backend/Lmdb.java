package io.etcdj.server.backend;

import com.kenai.jffi.CallContext;
import com.kenai.jffi.CallingConvention;
import com.kenai.jffi.Invoker;
import com.kenai.jffi.Library;
import com.kenai.jffi.MemoryIO;
import com.kenai.jffi.Type;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * LMDB's C functions the backend calls, bound through jffi (the JNI stub under jnr-ffi) with no
 * generated or reflective layer between: each call is one JNI call with the arguments as machine
 * words. Every function used takes at most five integer or pointer arguments and returns an int, a
 * size or a pointer, which is the shape jffi's direct calls handle on 64-bit Linux (the only
 * platforms whose LMDB library the build carries). Structures are read at their C offsets
 * (lmdb.h: {@code MDB_val}, {@code MDB_stat}, {@code MDB_envinfo}).
 *
 * <p>The library is loaded once per JVM ({@link LmdbLibrary}) and never unloaded.
 */
final class Lmdb {
    static final int SUCCESS = 0;
    static final int NOTFOUND = -30798;
    static final int MAP_FULL = -30792;

    static final int NOSUBDIR = 0x4000;
    static final int NOSYNC = 0x10000;
    static final int RDONLY = 0x20000;
    static final int NOTLS = 0x200000;
    static final int CREATE = 0x40000;
    static final int RESERVE = 0x10000;
    static final int CP_COMPACT = 0x01;

    static final int FIRST = 0;
    static final int NEXT = 8;
    static final int SET_RANGE = 17;

    /** {@code MDB_val}: {@code size_t mv_size; void *mv_data}. */
    static final int VAL_SIZE = 0;
    static final int VAL_DATA = 8;
    static final int VAL_BYTES = 16;
    /** {@code MDB_stat}: two unsigned ints, then four size_t. */
    static final int STAT_PSIZE = 0;
    static final int STAT_BRANCH = 8;
    static final int STAT_LEAF = 16;
    static final int STAT_OVERFLOW = 24;
    static final int STAT_ENTRIES = 32;
    static final int STAT_BYTES = 40;
    /** {@code MDB_envinfo}: map address, map size, last page number, last transaction id, two unsigned ints. */
    static final int INFO_LAST_PGNO = 16;
    static final int INFO_BYTES = 40;

    static final MemoryIO MEMORY = MemoryIO.getInstance();
    private static final Invoker INVOKER = Invoker.getInstance();

    private static final Library LIBRARY = LmdbLibrary.load();
    private static final long ENV_CREATE = symbol("mdb_env_create");
    private static final long ENV_SET_MAPSIZE = symbol("mdb_env_set_mapsize");
    private static final long ENV_SET_MAXDBS = symbol("mdb_env_set_maxdbs");
    private static final long ENV_SET_MAXREADERS = symbol("mdb_env_set_maxreaders");
    private static final long ENV_OPEN = symbol("mdb_env_open");
    private static final long ENV_CLOSE = symbol("mdb_env_close");
    private static final long ENV_SYNC = symbol("mdb_env_sync");
    private static final long ENV_COPY2 = symbol("mdb_env_copy2");
    private static final long ENV_INFO = symbol("mdb_env_info");
    private static final long ENV_STAT = symbol("mdb_env_stat");
    private static final long TXN_BEGIN = symbol("mdb_txn_begin");
    private static final long TXN_COMMIT = symbol("mdb_txn_commit");
    private static final long TXN_ABORT = symbol("mdb_txn_abort");
    private static final long TXN_ID = symbol("mdb_txn_id");
    private static final long DBI_OPEN = symbol("mdb_dbi_open");
    private static final long STAT = symbol("mdb_stat");
    private static final long GET = symbol("mdb_get");
    private static final long PUT = symbol("mdb_put");
    private static final long DEL = symbol("mdb_del");
    private static final long CURSOR_OPEN = symbol("mdb_cursor_open");
    private static final long CURSOR_CLOSE = symbol("mdb_cursor_close");
    private static final long CURSOR_GET = symbol("mdb_cursor_get");
    private static final long STRERROR = symbol("mdb_strerror");

    private static final CallContext[] CONTEXTS = new CallContext[6];

    static {
        for (int args = 0; args < CONTEXTS.length; args++) {
            Type[] params = new Type[args];
            Arrays.fill(params, Type.SLONG);
            CONTEXTS[args] = CallContext.getCallContext(Type.SLONG, params, CallingConvention.DEFAULT, false);
        }
    }

    private Lmdb() {
    }

    private static long symbol(String name) {
        long address = LIBRARY.getSymbolAddress(name);
        if (address == 0) {
            throw new UnsatisfiedLinkError("LMDB library has no " + name + ": " + Library.getLastError());
        }
        return address;
    }

    // The calls. An int result is the low word of the returned register: cast, never compared as a long.

    static int envCreate(long envOut) {
        return (int) INVOKER.invokeL1(CONTEXTS[1], ENV_CREATE, envOut);
    }

    static int envSetMapSize(long env, long size) {
        return (int) INVOKER.invokeL2(CONTEXTS[2], ENV_SET_MAPSIZE, env, size);
    }

    static int envSetMaxDbs(long env, int dbs) {
        return (int) INVOKER.invokeL2(CONTEXTS[2], ENV_SET_MAXDBS, env, dbs);
    }

    static int envSetMaxReaders(long env, int readers) {
        return (int) INVOKER.invokeL2(CONTEXTS[2], ENV_SET_MAXREADERS, env, readers);
    }

    static int envOpen(long env, long path, int flags, int mode) {
        return (int) INVOKER.invokeL4(CONTEXTS[4], ENV_OPEN, env, path, flags, mode);
    }

    static void envClose(long env) {
        INVOKER.invokeL1(CONTEXTS[1], ENV_CLOSE, env);
    }

    static int envSync(long env, boolean force) {
        return (int) INVOKER.invokeL2(CONTEXTS[2], ENV_SYNC, env, force ? 1 : 0);
    }

    static int envCopy2(long env, long path, int flags) {
        return (int) INVOKER.invokeL3(CONTEXTS[3], ENV_COPY2, env, path, flags);
    }

    static int envInfo(long env, long infoOut) {
        return (int) INVOKER.invokeL2(CONTEXTS[2], ENV_INFO, env, infoOut);
    }

    static int envStat(long env, long statOut) {
        return (int) INVOKER.invokeL2(CONTEXTS[2], ENV_STAT, env, statOut);
    }

    static int txnBegin(long env, int flags, long txnOut) {
        return (int) INVOKER.invokeL4(CONTEXTS[4], TXN_BEGIN, env, 0L, flags, txnOut);
    }

    static int txnCommit(long txn) {
        return (int) INVOKER.invokeL1(CONTEXTS[1], TXN_COMMIT, txn);
    }

    static void txnAbort(long txn) {
        INVOKER.invokeL1(CONTEXTS[1], TXN_ABORT, txn);
    }

    static long txnId(long txn) {
        return INVOKER.invokeL1(CONTEXTS[1], TXN_ID, txn);
    }

    static int dbiOpen(long txn, long name, int flags, long dbiOut) {
        return (int) INVOKER.invokeL4(CONTEXTS[4], DBI_OPEN, txn, name, flags, dbiOut);
    }

    static int stat(long txn, int dbi, long statOut) {
        return (int) INVOKER.invokeL3(CONTEXTS[3], STAT, txn, dbi, statOut);
    }

    static int get(long txn, int dbi, long key, long data) {
        return (int) INVOKER.invokeL4(CONTEXTS[4], GET, txn, dbi, key, data);
    }

    static int put(long txn, int dbi, long key, long data, int flags) {
        return (int) INVOKER.invokeL5(CONTEXTS[5], PUT, txn, dbi, key, data, flags);
    }

    static int del(long txn, int dbi, long key) {
        return (int) INVOKER.invokeL4(CONTEXTS[4], DEL, txn, dbi, key, 0L);
    }

    static int cursorOpen(long txn, int dbi, long cursorOut) {
        return (int) INVOKER.invokeL3(CONTEXTS[3], CURSOR_OPEN, txn, dbi, cursorOut);
    }

    static void cursorClose(long cursor) {
        INVOKER.invokeL1(CONTEXTS[1], CURSOR_CLOSE, cursor);
    }

    static int cursorGet(long cursor, long key, long data, int op) {
        return (int) INVOKER.invokeL4(CONTEXTS[4], CURSOR_GET, cursor, key, data, op);
    }

    /** LMDB's text for a result code (its own, or the C library's for an errno). */
    static String describe(int rc) {
        long text = INVOKER.invokeL1(CONTEXTS[1], STRERROR, rc);
        return text == 0 ? "error " + rc : new String(MEMORY.getZeroTerminatedByteArray(text), StandardCharsets.UTF_8);
    }

    /** Throws {@link LmdbError} for a result other than success. */
    static void check(int rc, String function) {
        if (rc != SUCCESS) {
            throw new LmdbError(function, rc, describe(rc));
        }
    }

    /** A NUL-terminated copy of {@code s} in native memory; the caller frees it. */
    static long cString(String s) {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        long p = MEMORY.allocateMemory(bytes.length + 1, false);
        MEMORY.putByteArray(p, bytes, 0, bytes.length);
        MEMORY.putByte(p + bytes.length, (byte) 0);
        return p;
    }
}
