package io.etcdj.server.backend;

/** A database's {@code MDB_stat}: its page size and how many pages of each kind and entries it has. */
record LmdbStat(int pageSize, long branchPages, long leafPages, long overflowPages, long entries) {
    static LmdbStat read(long stat) {
        return new LmdbStat(Lmdb.MEMORY.getInt(stat + Lmdb.STAT_PSIZE), Lmdb.MEMORY.getLong(stat + Lmdb.STAT_BRANCH),
                Lmdb.MEMORY.getLong(stat + Lmdb.STAT_LEAF), Lmdb.MEMORY.getLong(stat + Lmdb.STAT_OVERFLOW),
                Lmdb.MEMORY.getLong(stat + Lmdb.STAT_ENTRIES));
    }

    /** The pages that hold data: branch, leaf and overflow. */
    long pages() {
        return branchPages + leafPages + overflowPages;
    }
}
