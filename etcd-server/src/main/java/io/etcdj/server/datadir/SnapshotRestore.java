package io.etcdj.server.datadir;

import io.etcdj.api.etcdserverpb.Member;
import io.etcdj.raftpb.ConfChange;
import io.etcdj.raftpb.ConfChangeType;
import io.etcdj.raftpb.ConfState;
import io.etcdj.raftpb.Entry;
import io.etcdj.raftpb.EntryType;
import io.etcdj.raftpb.HardState;
import io.etcdj.raftpb.Snapshot;
import io.etcdj.raftpb.SnapshotMetadata;
import io.etcdj.server.backend.Backend;
import io.etcdj.server.backend.BackendException;
import io.etcdj.server.backend.Bucket;
import io.etcdj.server.backend.Bytes;
import io.etcdj.server.backend.MetaKeys;
import io.etcdj.server.backend.WriteTx;
import io.etcdj.server.fileutil.Fsync;
import io.etcdj.server.membership.Membership;
import io.etcdj.server.snap.Snapshotter;
import io.etcdj.server.wal.Wal;
import io.etcdj.server.wal.WalOptions;
import io.etcdj.server.wal.WalSnapshot;
import io.etcdj.serverpb.WalMetadata;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * {@code snapshot restore}: makes the data directory of one member of a new cluster from a
 * snapshot, as etcd does it. The backend keeps every key, revision and lease of the snapshot;
 * its member buckets are replaced by the new cluster and its consistent index set to the end of
 * a fresh WAL holding one committed conf change per member (term 1), with a Raft snapshot at
 * that index. The server's restart path then starts the member with the new configuration and
 * skips nothing it needs: its Raft state starts at the snapshot, its backend is already there.
 *
 * <p>The snapshot may be ours (LMDB) or a real etcd's (bbolt, from etcd 3.4 to 3.6), which is
 * converted record by record on the way in ({@link EtcdImport}).
 */
public final class SnapshotRestore {
    private static final long TERM = 1;
    /** Name of the staging directory inside the data dir (and suffix of the WAL dir's sibling). */
    private static final String STAGING = ".restore-tmp";

    private SnapshotRestore() {
    }

    public static void restore(RestoreConfig cfg) throws DataDirException {
        restore(cfg, RestoreProgress.NONE);
    }

    /** {@link #restore(RestoreConfig)}, reporting the snapshot bytes read and records written to {@code progress}. */
    public static void restore(RestoreConfig cfg, RestoreProgress progress) throws DataDirException {
        DataDirLayout layout = cfg.layout();
        checkTargets(layout);
        // Everything is made in a staging place beside the targets and renamed in at the end, so a
        // failure at any step (a corrupted snapshot found half-way) leaves no member directory behind.
        boolean dataDirCreated = !Files.exists(layout.dataDir());
        Path stagingRoot = layout.dataDir().resolve(STAGING);
        Path stagingWal = layout.walDir() == null ? null
                : layout.walDir().resolveSibling(layout.walDir().getFileName() + STAGING);
        DataDirLayout staging = new DataDirLayout(stagingRoot, stagingWal);
        try {
            Files.createDirectories(staging.snapDir());
            SnapshotFile source = SnapshotFile.of(cfg.snapshot(), "open");
            if (source.isBbolt()) {
                source.verifyHash(cfg.skipHashCheck(), progress);
                EtcdImport.convert(source, staging.backendFile(), progress);
            } else {
                source.copyDbTo(staging.backendFile(), cfg.skipHashCheck(), progress);
            }
            List<Member> members = cfg.cluster().members();
            long commit = members.size();
            rewriteBackend(staging.backendFile(), members, commit, cfg.bumpRevision(), cfg.markCompacted());
            writeRaftState(staging, cfg.cluster(), members);
            // LMDB's reader table beside the file: the server makes its own; a restored dir holds only data
            Files.deleteIfExists(staging.backendFile().resolveSibling(staging.backendFile().getFileName() + "-lock"));
            Files.move(staging.memberDir(), layout.memberDir(), StandardCopyOption.ATOMIC_MOVE);
            Fsync.dir(layout.dataDir());
            if (stagingWal != null) {
                try {
                    Files.move(stagingWal, layout.walDir(), StandardCopyOption.ATOMIC_MOVE);
                    Fsync.dir(layout.walDir().toAbsolutePath().getParent());
                } catch (IOException e) {
                    ScratchBackend.deleteTree(layout.memberDir());
                    throw e;
                }
            }
            Files.delete(stagingRoot);
        } catch (IOException e) {
            removeStaging(staging, layout, dataDirCreated);
            throw new DataDirException(e.getMessage(), e);
        } catch (DataDirException | RuntimeException e) {
            removeStaging(staging, layout, dataDirCreated);
            throw e;
        }
    }

    /** etcd refuses to overwrite anything: a non-empty data dir or an existing WAL dir. */
    private static void checkTargets(DataDirLayout layout) throws DataDirException {
        Path dataDir = layout.dataDir();
        if (Files.exists(dataDir) && !isEmptyDir(dataDir)) {
            throw new DataDirException("data-dir \"" + dataDir + "\" not empty or could not be read");
        }
        if (layout.walDir() != null && Files.exists(layout.walDir())) {
            throw new DataDirException("wal-dir \"" + layout.walDir() + "\" exists");
        }
    }

    private static boolean isEmptyDir(Path dir) {
        if (!Files.isDirectory(dir)) {
            return false;
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.findAny().isEmpty();
        } catch (IOException e) {
            return false;
        }
    }

    /** Leaves no half-made member behind: the staging places go, a data dir this restore created goes too. */
    private static void removeStaging(DataDirLayout staging, DataDirLayout layout, boolean dataDirCreated) {
        ScratchBackend.deleteTree(staging.dataDir());
        ScratchBackend.deleteTree(staging.walDir());
        if (dataDirCreated && !Files.exists(layout.memberDir())) {
            ScratchBackend.deleteTree(layout.dataDir());
        }
    }

    private static void rewriteBackend(Path db, List<Member> members, long consistentIndex, long bump,
                                       boolean markCompacted) throws DataDirException {
        try (Backend backend = Backends.open(db); WriteTx tx = backend.beginWrite()) {
            if (markCompacted) {
                long latest = latestRevision(tx) + bump;
                tx.put(Bucket.META, MetaKeys.SCHEDULED_COMPACT_REV, Bytes.longBytes(latest));
                tx.put(Bucket.META, MetaKeys.FINISHED_COMPACT_REV, Bytes.longBytes(latest));
            }
            clear(tx, Bucket.MEMBERS);
            clear(tx, Bucket.MEMBERS_REMOVED);
            Membership membership = new Membership();
            for (Member m : members) {
                membership.add(tx, m);
            }
            tx.put(Bucket.META, MetaKeys.CONSISTENT_INDEX, Bytes.longBytes(consistentIndex));
            tx.put(Bucket.META, MetaKeys.TERM, Bytes.longBytes(TERM));
            tx.commit();
        } catch (BackendException e) {
            throw new DataDirException(e.getMessage(), e);
        }
    }

    /** The newest revision in the key bucket, or the compaction mark if it is later (an earlier bump). */
    private static long latestRevision(WriteTx tx) {
        long[] last = {0};
        tx.forEach(Bucket.KEY, null, null, (k, v) -> {
            last[0] = Bytes.toLong(k);
            return true;
        });
        byte[] compacted = tx.get(Bucket.META, MetaKeys.FINISHED_COMPACT_REV);
        return Math.max(last[0], compacted == null ? 0 : Bytes.toLong(compacted));
    }

    private static void clear(WriteTx tx, Bucket bucket) {
        List<byte[]> keys = new ArrayList<>();
        tx.forEach(bucket, null, null, (k, v) -> keys.add(k));
        keys.forEach(k -> tx.delete(bucket, k));
    }

    /**
     * The WAL (metadata: this member and the cluster; entries 1..n adding each member, all
     * committed) and a Raft snapshot at n whose configuration has every member as a voter.
     */
    private static void writeRaftState(DataDirLayout layout, InitialCluster cluster, List<Member> members)
            throws IOException {
        byte[] meta = WalMetadata.newBuilder().setMemberId(cluster.localMemberId())
                .setClusterId(cluster.clusterId()).build().toByteArray();
        List<Entry> entries = new ArrayList<>();
        ConfState.Builder conf = ConfState.newBuilder();
        for (Member m : members) {
            ConfChange cc = ConfChange.newBuilder().setType(ConfChangeType.ConfChangeAddNode)
                    .setNodeId(m.getID()).setContext(m.toByteString()).build();
            entries.add(Entry.newBuilder().setType(EntryType.EntryConfChange).setTerm(TERM)
                    .setIndex(entries.size() + 1L).setData(cc.toByteString()).build());
            conf.addVoters(m.getID());
        }
        long commit = entries.size();
        HardState hs = HardState.newBuilder().setTerm(TERM).setVote(members.get(0).getID()).setCommit(commit).build();
        ConfState confState = conf.build();
        try (Wal wal = Wal.create(layout.walPath(), meta, WalOptions.DEFAULT)) {
            wal.save(hs, entries);
            new Snapshotter(layout.snapDir()).save(Snapshot.newBuilder().setMetadata(SnapshotMetadata.newBuilder()
                    .setIndex(commit).setTerm(TERM).setConfState(confState)).build());
            wal.saveSnapshot(new WalSnapshot(commit, TERM, confState));
        }
    }
}
