package io.etcdj.server.backend;

import java.nio.file.Path;
import java.util.function.LongFunction;
import java.util.function.LongToIntFunction;

/**
 * An open LMDB environment: one file ({@code MDB_NOSUBDIR}), its named databases, transactions on
 * it. Closing it is the caller's to order: no transaction may be open then (the backend's
 * environment lock sees to that).
 */
final class LmdbEnv implements AutoCloseable {
    /** {@code MDB_env *}, or 0 once closed. */
    private long env;

    private LmdbEnv(long env) {
        this.env = env;
    }

    /** Opens (or creates) {@code file} with the map size, the number of named databases and readers, and {@code flags}. */
    static LmdbEnv open(Path file, long mapSize, int maxDbs, int maxReaders, int flags) {
        long out = Lmdb.MEMORY.allocateMemory(8, true);
        long path = Lmdb.cString(file.toString());
        long env = 0;
        try {
            Lmdb.check(Lmdb.envCreate(out), "mdb_env_create");
            env = Lmdb.MEMORY.getAddress(out);
            Lmdb.check(Lmdb.envSetMapSize(env, mapSize), "mdb_env_set_mapsize");
            Lmdb.check(Lmdb.envSetMaxDbs(env, maxDbs), "mdb_env_set_maxdbs");
            Lmdb.check(Lmdb.envSetMaxReaders(env, maxReaders), "mdb_env_set_maxreaders");
            Lmdb.check(Lmdb.envOpen(env, path, flags, 0644), "mdb_env_open");
            LmdbEnv opened = new LmdbEnv(env);
            env = 0;
            return opened;
        } finally {
            if (env != 0) {
                Lmdb.envClose(env); // mdb_env_open failed: the handle must still be closed
            }
            Lmdb.MEMORY.freeMemory(path);
            Lmdb.MEMORY.freeMemory(out);
        }
    }

    /** Opens the named database {@code name}, creating it if need be, in a write transaction of its own. */
    int openDbi(String name) {
        long name0 = Lmdb.cString(name);
        try (LmdbTxn txn = txnWrite()) {
            int dbi = txn.openDbi(name0);
            txn.commit();
            return dbi;
        } finally {
            Lmdb.MEMORY.freeMemory(name0);
        }
    }

    LmdbTxn txnRead() {
        return LmdbTxn.begin(handle(), true);
    }

    /** The write transaction: LMDB lets one be open at a time and makes a second writer wait. */
    LmdbTxn txnWrite() {
        return LmdbTxn.begin(handle(), false);
    }

    /** Flushes the map to the file ({@code force}: even with {@code MDB_NOSYNC}). */
    void sync(boolean force) {
        Lmdb.check(Lmdb.envSync(handle(), force), "mdb_env_sync");
    }

    /** Writes a consistent copy of the environment to {@code target} ({@link Lmdb#CP_COMPACT}: without free pages). */
    void copy(Path target, int flags) {
        long path = Lmdb.cString(target.toString());
        try {
            Lmdb.check(Lmdb.envCopy2(handle(), path, flags), "mdb_env_copy2");
        } finally {
            Lmdb.MEMORY.freeMemory(path);
        }
    }

    /** Changes the map size; no transaction may be open. */
    void setMapSize(long size) {
        Lmdb.check(Lmdb.envSetMapSize(handle(), size), "mdb_env_set_mapsize");
    }

    /** The number of the last page the environment has used. */
    long lastPageNumber() {
        return readStruct(Lmdb.INFO_BYTES, info -> Lmdb.envInfo(handle(), info), "mdb_env_info",
                info -> Lmdb.MEMORY.getLong(info + Lmdb.INFO_LAST_PGNO));
    }

    /** The statistics of the main (unnamed) database, which holds the named ones; its page size is the file's. */
    LmdbStat stat() {
        return readStruct(Lmdb.STAT_BYTES, stat -> Lmdb.envStat(handle(), stat), "mdb_env_stat", LmdbStat::read);
    }

    /** Calls {@code call} with a zeroed native structure of {@code bytes} and reads the result out of it. */
    private static <T> T readStruct(int bytes, LongToIntFunction call, String function, LongFunction<T> read) {
        long struct = Lmdb.MEMORY.allocateMemory(bytes, true);
        try {
            Lmdb.check(call.applyAsInt(struct), function);
            return read.apply(struct);
        } finally {
            Lmdb.MEMORY.freeMemory(struct);
        }
    }

    boolean isClosed() {
        return env == 0;
    }

    @Override
    public void close() {
        if (env != 0) {
            long closing = env;
            env = 0;
            Lmdb.envClose(closing);
        }
    }

    private long handle() {
        if (env == 0) {
            throw new IllegalStateException("LMDB environment is closed");
        }
        return env;
    }
}
