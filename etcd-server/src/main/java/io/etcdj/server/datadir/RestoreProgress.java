package io.etcdj.server.datadir;

/**
 * How far a {@link SnapshotRestore} has come, for a progress line at a terminal (etcdutl's and
 * etcdctl's {@code snapshot restore}): the bytes of the snapshot read while its hash is checked or
 * it is copied (the total is the file's), then, for a real etcd's file, the records written into
 * the new backend as it is converted (their number is not known before the end). Called on the
 * restoring thread, once per buffer or record: an implementation keeps it cheap.
 */
public interface RestoreProgress {

    /** Reports nothing. */
    RestoreProgress NONE = new RestoreProgress() {
        @Override
        public void bytesRead(long done, long total) {
        }

        @Override
        public void recordsWritten(long written) {
        }
    };

    /** {@code done} bytes of the snapshot's backend part ({@code total} bytes) read so far. */
    void bytesRead(long done, long total);

    /** {@code written} records (keys, leases, alarms, ...) written into the new backend so far. */
    void recordsWritten(long written);
}
