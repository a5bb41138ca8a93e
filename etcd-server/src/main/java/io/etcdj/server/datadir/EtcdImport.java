package io.etcdj.server.datadir;

import io.etcdj.server.backend.Backend;
import io.etcdj.server.backend.BackendException;
import io.etcdj.server.backend.Bucket;
import io.etcdj.server.backend.Bytes;
import io.etcdj.server.backend.MetaKeys;
import io.etcdj.server.backend.WriteTx;
import io.etcdj.server.bbolt.BboltException;
import io.etcdj.server.bbolt.BboltReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Brings a real etcd's backend file (a bbolt snapshot, or a stopped member's
 * {@code member/snap/db}) into a new backend file of ours, record by record (see
 * {@link EtcdSchema} for what differs). The whole file is checked before anything is written:
 * unknown buckets and a storage version newer than 3.6 are refused. Membership is left out: the
 * restore that calls this writes the new cluster's, as etcd's restore does.
 */
final class EtcdImport {
    private final SnapshotFile source;
    private final BboltReader reader;
    private final RestoreProgress progress;
    private long written;

    private EtcdImport(SnapshotFile source, BboltReader reader, RestoreProgress progress) {
        this.source = source;
        this.reader = reader;
        this.progress = progress;
    }

    /** Converts {@code source} into the new backend file {@code target} (which must not exist). */
    static void convert(SnapshotFile source, Path target) throws DataDirException {
        convert(source, target, RestoreProgress.NONE);
    }

    /** {@link #convert(SnapshotFile, Path)}, reporting each record copied to {@code progress}. */
    static void convert(SnapshotFile source, Path target, RestoreProgress progress) throws DataDirException {
        try (BboltReader reader = open(source)) {
            EtcdImport imp = new EtcdImport(source, reader, progress);
            Map<String, byte[]> buckets = imp.buckets();
            Map<String, byte[]> meta = imp.entries(buckets.get(EtcdSchema.META));
            EtcdSchema.checkStorageVersion(meta.get(EtcdSchema.STORAGE_VERSION));
            try (Backend backend = Backends.create(target, reader.size()); WriteTx tx = backend.beginWrite()) {
                imp.copy(buckets, tx);
                imp.copyMeta(meta, tx);
                tx.commit();
            } catch (BackendException e) {
                throw new DataDirException("cannot write " + target + ": " + e.getMessage(), e);
            }
        } catch (BboltException e) {
            throw fail(source, e);
        }
    }

    static BboltReader open(SnapshotFile source) throws DataDirException {
        try {
            return BboltReader.open(source.path(), source.dbSize());
        } catch (BboltException e) {
            throw fail(source, e);
        }
    }

    static DataDirException fail(SnapshotFile source, BboltException e) {
        return new DataDirException("cannot read etcd snapshot " + source.path() + ": " + e.getMessage(), e);
    }

    /** Every top-level bucket by name (header bytes); anything that is not a known bucket is refused. */
    private Map<String, byte[]> buckets() throws BboltException, DataDirException {
        Map<String, byte[]> buckets = new LinkedHashMap<>();
        reader.<DataDirException>forEachTopLevel((name, header, bucket) -> {
            String n = new String(name, StandardCharsets.UTF_8);
            if (!bucket) {
                throw new DataDirException("cannot read etcd snapshot " + source.path() + ": top-level key \"" + n
                        + "\" is not a bucket");
            }
            if (!EtcdSchema.isKnownBucket(n)) {
                throw new DataDirException("cannot read etcd snapshot " + source.path() + ": unknown bucket \"" + n
                        + "\" (etcd 3.4 to 3.6 write only " + EtcdSchema.knownBuckets() + ")");
            }
            buckets.put(n, header);
        });
        return buckets;
    }

    /** A small bucket's entries (meta) by key; an absent bucket is empty. */
    private Map<String, byte[]> entries(byte[] header) throws BboltException, DataDirException {
        Map<String, byte[]> out = new TreeMap<>();
        if (header != null) {
            walk(EtcdSchema.META, header, (k, v) -> out.put(new String(k, StandardCharsets.US_ASCII), v));
        }
        return out;
    }

    private void copy(Map<String, byte[]> buckets, WriteTx tx) throws BboltException, DataDirException {
        for (Map.Entry<String, byte[]> b : buckets.entrySet()) {
            String name = b.getKey();
            Bucket ours = EtcdSchema.COPIED.get(name);
            if (ours == Bucket.KEY) {
                walk(name, b.getValue(), counted((k, v) -> {
                    if (!EtcdSchema.isRevisionKey(k)) {
                        throw new DataDirException("cannot read etcd snapshot " + source.path()
                                + ": key bucket holds a key that is not a revision (" + k.length + " bytes)");
                    }
                    tx.put(Bucket.KEY, k, v);
                }));
            } else if (ours != null) {
                walk(name, b.getValue(), counted((k, v) -> tx.put(ours, k, v)));
            } else if (name.equals(EtcdSchema.LEASE)) {
                walk(name, b.getValue(), counted((k, v) -> tx.put(Bucket.LEASE, k, EtcdSchema.leaseFromEtcd(k, v))));
            } else if (name.equals(EtcdSchema.ALARM)) {
                walk(name, b.getValue(), counted((k, v) -> tx.put(Bucket.ALARM, EtcdSchema.alarmFromEtcd(k), new byte[0])));
            }
            // meta is copied key by key below; members, members_removed and cluster are rebuilt by the restore
        }
    }

    /** {@code copy}, then one more record written reported to the progress. */
    private Entry counted(Entry copy) {
        return (k, v) -> {
            copy.accept(k, v);
            progress.recordsWritten(++written);
        };
    }

    private void copyMeta(Map<String, byte[]> meta, WriteTx tx) throws DataDirException {
        byte[] ci = meta.get(EtcdSchema.CONSISTENT_INDEX);
        if (ci != null && ci.length == 8) {
            tx.put(Bucket.META, MetaKeys.CONSISTENT_INDEX, ci);
        }
        byte[] term = meta.get(EtcdSchema.TERM);
        if (term != null && term.length == 8) {
            tx.put(Bucket.META, MetaKeys.TERM, term);
        }
        byte[] scheduled = meta.get(EtcdSchema.SCHEDULED_COMPACT_REV);
        if (scheduled != null) {
            tx.put(Bucket.META, MetaKeys.SCHEDULED_COMPACT_REV, Bytes.longBytes(EtcdSchema.revisionMain(scheduled)));
        }
        byte[] finished = meta.get(EtcdSchema.FINISHED_COMPACT_REV);
        if (finished != null) {
            tx.put(Bucket.META, MetaKeys.FINISHED_COMPACT_REV, Bytes.longBytes(EtcdSchema.revisionMain(finished)));
        }
    }

    /** One bucket's entries; etcd never nests buckets, so a nested one means a file that is not etcd's. */
    private void walk(String name, byte[] header, Entry visitor) throws BboltException, DataDirException {
        reader.<DataDirException>forEachInBucket(header, (k, v, nested) -> {
            if (nested) {
                throw new DataDirException("cannot read etcd snapshot " + source.path() + ": bucket \"" + name
                        + "\" holds a nested bucket \"" + new String(k, StandardCharsets.UTF_8) + "\", which etcd never writes");
            }
            visitor.accept(k, v);
        });
    }

    @FunctionalInterface
    private interface Entry {
        void accept(byte[] key, byte[] value) throws DataDirException;
    }
}
