package io.etcdj.server.datadir;

import io.etcdj.server.backend.Bucket;
import io.etcdj.server.backend.Bytes;
import io.etcdj.server.backend.MetaKeys;
import io.etcdj.server.backend.ReadTx;
import io.etcdj.server.bbolt.BboltException;
import io.etcdj.server.bbolt.BboltWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/**
 * Our backend as etcd's snapshot file. {@link #writeBbolt} writes a read view as etcd's backend
 * file: the Snapshot RPC streams that (followed by its SHA-256). {@link #export} is
 * {@code snapshot export --format etcd}: writes one of our older (LMDB) snapshots, or a stopped member's
 * backend, as the snapshot file a real etcd's {@code etcdctl snapshot save} would have written
 * (a bbolt file with etcd's buckets and records, then its SHA-256), which etcd's
 * {@code snapshot restore} accepts. The file is written under a temporary name and renamed at
 * the end, so the output is either complete or absent.
 */
public final class EtcdExport {
    private EtcdExport() {
    }

    /**
     * Exports {@code source} (a snapshot or backend file of ours, or a data dir) to {@code output}.
     * A snapshot's SHA-256 trailer is checked unless {@code skipHashCheck}.
     *
     * @return the status of the written file, as {@code snapshot status} would show it
     */
    public static SnapshotStatus export(Path source, Path output, boolean skipHashCheck) throws DataDirException {
        SnapshotFile snapshot = sourceFile(source);
        if (snapshot.isBbolt()) {
            throw new DataDirException(source + " is already an etcd (bbolt) file; copy it as it is");
        }
        if (snapshot.hasChecksum()) {
            snapshot.verifyHash(skipHashCheck);
        }
        Path part = output.resolveSibling(output.getFileName() + ".part");
        try {
            Files.deleteIfExists(part);
            try (ScratchBackend scratch = ScratchBackend.copyOf(snapshot);
                 ReadTx tx = scratch.backend().beginRead()) {
                writeBbolt(tx, part);
            }
            appendSha256(part);
            Files.move(part, output, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            deleteQuietly(part);
            throw IoErrors.describe("write", output, e);
        } catch (DataDirException | RuntimeException e) {
            deleteQuietly(part);
            throw e;
        }
        return SnapshotStatus.of(output);
    }

    /**
     * Writes the read view {@code tx} as etcd's backend file (bbolt, without the SHA-256 trailer)
     * to the new file {@code file}: what {@code snapshot export} writes, and what a member streams
     * for the Snapshot RPC. Reads the view once, in key order, holding one page in memory.
     */
    public static void writeBbolt(ReadTx tx, Path file) throws DataDirException {
        try (BboltWriter writer = BboltWriter.create(file, BboltWriter.DEFAULT_PAGE_SIZE)) {
            write(tx, writer);
            writer.finish();
        } catch (BboltException e) {
            throw new DataDirException("cannot write etcd snapshot " + file + ": " + e.getMessage(), e);
        }
    }

    /** A data dir means its backend file; anything else is taken as a snapshot or backend file. */
    private static SnapshotFile sourceFile(Path source) throws DataDirException {
        if (Files.isDirectory(source)) {
            Path db = DataDirLayout.of(source).backendFile();
            if (!Files.isRegularFile(db)) {
                throw new DataDirException("open " + db + ": no such file or directory (is " + source + " a data dir?)");
            }
            return SnapshotFile.of(db, "open");
        }
        return SnapshotFile.of(source, "open");
    }

    /** Every bucket etcd has, in name order as bbolt keeps them, each in etcd's record format. */
    private static void write(ReadTx tx, BboltWriter w) throws BboltException, DataDirException {
        TreeMap<byte[], byte[]> alarms = sorted();
        forEach(tx, Bucket.ALARM, (k, v) -> alarms.put(EtcdSchema.alarmToEtcd(k), new byte[0]));
        bucket(w, EtcdSchema.ALARM, alarms);
        copy(tx, w, EtcdSchema.AUTH, Bucket.AUTH);
        copy(tx, w, EtcdSchema.AUTH_ROLES, Bucket.AUTH_ROLES);
        copy(tx, w, EtcdSchema.AUTH_USERS, Bucket.AUTH_USERS);
        copy(tx, w, EtcdSchema.KEY, Bucket.KEY);

        w.beginBucket(EtcdSchema.ascii(EtcdSchema.LEASE));
        forEach(tx, Bucket.LEASE, (k, v) -> w.put(k, EtcdSchema.leaseToEtcd(v)));
        w.endBucket();

        // The membership goes along as etcd's own snapshot carries it; no restore keeps it (etcd
        // 3.4 takes the new cluster's from the v2 snapshot its restore writes, 3.5+ and ours
        // rewrite the bucket). The cluster bucket (the cluster version) is left out: ours says
        // 3.6, which an etcd 3.4 or 3.5 must not take for its cluster's version (3.5 reads it
        // from the backend and stops on a version above its own); the new members agree on theirs.
        TreeMap<byte[], byte[]> members = sorted();
        forEach(tx, Bucket.MEMBERS, (k, v) -> {
            Map.Entry<byte[], byte[]> m = EtcdSchema.memberToEtcd(v);
            members.put(m.getKey(), m.getValue());
        });
        bucket(w, EtcdSchema.MEMBERS, members);
        TreeMap<byte[], byte[]> removed = sorted();
        forEach(tx, Bucket.MEMBERS_REMOVED, (k, v) -> removed.put(EtcdSchema.memberKey(Bytes.toLong(k)),
                EtcdSchema.ascii(EtcdSchema.REMOVED)));
        bucket(w, EtcdSchema.MEMBERS_REMOVED, removed);

        TreeMap<byte[], byte[]> meta = sorted();
        copyMeta(tx, meta, MetaKeys.CONSISTENT_INDEX, EtcdSchema.CONSISTENT_INDEX);
        copyMeta(tx, meta, MetaKeys.TERM, EtcdSchema.TERM);
        byte[] scheduled = tx.get(Bucket.META, MetaKeys.SCHEDULED_COMPACT_REV);
        if (scheduled != null) {
            meta.put(EtcdSchema.ascii(EtcdSchema.SCHEDULED_COMPACT_REV), EtcdSchema.revision(Bytes.toLong(scheduled)));
        }
        byte[] finished = tx.get(Bucket.META, MetaKeys.FINISHED_COMPACT_REV);
        if (finished != null) {
            meta.put(EtcdSchema.ascii(EtcdSchema.FINISHED_COMPACT_REV), EtcdSchema.revision(Bytes.toLong(finished)));
        }
        bucket(w, EtcdSchema.META, meta);
    }

    private static void copyMeta(ReadTx tx, Map<byte[], byte[]> meta, byte[] ours, String etcds) {
        byte[] v = tx.get(Bucket.META, ours);
        if (v != null) {
            meta.put(EtcdSchema.ascii(etcds), v);
        }
    }

    private static void copy(ReadTx tx, BboltWriter w, String name, Bucket ours) throws BboltException, DataDirException {
        w.beginBucket(EtcdSchema.ascii(name));
        forEach(tx, ours, w::put);
        w.endBucket();
    }

    private static void bucket(BboltWriter w, String name, TreeMap<byte[], byte[]> entries) throws BboltException {
        w.beginBucket(EtcdSchema.ascii(name));
        for (Map.Entry<byte[], byte[]> e : entries.entrySet()) {
            w.put(e.getKey(), e.getValue());
        }
        w.endBucket();
    }

    private static TreeMap<byte[], byte[]> sorted() {
        return new TreeMap<>(Arrays::compareUnsigned);
    }

    @FunctionalInterface
    private interface Entry {
        void accept(byte[] key, byte[] value) throws BboltException, DataDirException;
    }

    /** LMDB's visitor cannot throw checked exceptions: they are carried out and rethrown here. */
    private static void forEach(ReadTx tx, Bucket bucket, Entry entry) throws BboltException, DataDirException {
        Exception[] failure = {null};
        tx.forEach(bucket, null, null, (k, v) -> {
            try {
                entry.accept(k, v);
                return true;
            } catch (BboltException | DataDirException e) {
                failure[0] = e;
                return false;
            }
        });
        if (failure[0] instanceof BboltException e) {
            throw e;
        }
        if (failure[0] instanceof DataDirException e) {
            throw e;
        }
    }

    private static void appendSha256(Path file) throws IOException {
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK always has SHA-256", e);
        }
        try (InputStream in = new DigestInputStream(Files.newInputStream(file), sha)) {
            in.transferTo(OutputStream.nullOutputStream());
        }
        Files.write(file, sha.digest(), StandardOpenOption.APPEND);
    }

    private static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException ignored) {
            // nothing more to do about a leftover temporary file
        }
    }
}
