package io.etcdj.server.backend;

/**
 * Every bucket of the backend file, in one place (as etcd's schema). Each bucket is an LMDB
 * named database inside the single {@code member/snap/db} file.
 */
public enum Bucket {
    /** revision (17 bytes: main, '_', sub [, 't' for tombstones]) → mvccpb.KeyValue. */
    KEY("key"),
    /** consistent index, term, compaction marks, cluster version. */
    META("meta"),
    /** lease ID (8 bytes) → lease record. */
    LEASE("lease"),
    /** auth enabled flag and auth revision. */
    AUTH("auth"),
    AUTH_USERS("authUsers"),
    AUTH_ROLES("authRoles"),
    /** member ID (8 bytes) → member record. */
    MEMBERS("members"),
    MEMBERS_REMOVED("members_removed"),
    /** member ID + alarm type → empty. */
    ALARM("alarm");

    private final String dbName;

    Bucket(String dbName) {
        this.dbName = dbName;
    }

    public String dbName() {
        return dbName;
    }
}
