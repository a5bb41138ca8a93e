package io.etcdj.server.datadir;

import io.etcdj.api.etcdserverpb.Member;
import io.etcdj.raftpb.ConfChange;
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
import io.etcdj.server.bbolt.BboltReader;
import io.etcdj.server.fileutil.Fsync;
import io.etcdj.server.membership.Membership;
import io.etcdj.server.snap.Snapshotter;
import io.etcdj.server.wal.Wal;
import io.etcdj.server.wal.WalOptions;
import io.etcdj.server.wal.WalSnapshot;
import io.etcdj.serverpb.MemberAttributes;
import io.etcdj.serverpb.WalMetadata;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Turns a real etcd's data directory (a stopped etcd 3.4 member's, or one the real
 * {@code etcdctl snapshot restore} made) into ours when the server starts on it, so that the
 * member serves the same keys, revisions, leases, users and members:
 * <ul>
 * <li>the backend: etcd's bbolt {@code member/snap/db}, record by record ({@link EtcdImport});</li>
 * <li>the membership, as etcd 3.4 knows it: the v2 store of its newest Raft snapshot, then the
 * conf changes and published attributes of the log up to what the backend has applied (its
 * consistent index); etcd 3.4's own backend copy of the members is not used, because the real
 * {@code etcdctl snapshot restore} leaves the old cluster's members in it;</li>
 * <li>the Raft state: the member and cluster IDs, the HardState, a Raft snapshot at the backend's
 * consistent index, and every entry after it, in our encoding ({@link EtcdEntries}), so that the
 * server applies what etcd had logged but not yet applied, and keeps the votes and terms it gave.</li>
 * </ul>
 *
 * <p>Crash-safe by renames: the new member directory is built and synced as
 * {@code member.etcdj-migrate.tmp}, renamed to {@code member.etcdj-migrate} (complete from then
 * on), then etcd's {@code member} is renamed to {@code member.etcd} (kept for the operator) and
 * the new directory to {@code member}, each rename followed by a sync of the data dir. A cut
 * at any point leaves etcd's files whole, and the next start finishes what was begun
 * ({@link #finishInterrupted}): never neither.
 */
public final class EtcdDataDirMigration {
    static final String BUILDING = "member.etcdj-migrate.tmp";
    static final String BUILT = "member.etcdj-migrate";
    /** Where etcd's member directory is kept after the migration. */
    public static final String ETCD_FILES = "member.etcd";

    /** What a migration did, for its log line. */
    public record Report(long memberId, long clusterId, long consistentIndex, long term, int members,
                         int entriesCarried, Path etcdFiles) {
    }

    /** Holds the data dir against a second process while the migration runs (the server's lock). */
    public interface Lock {
        AutoCloseable take() throws IOException;
    }

    private final Path dataDir;

    private EtcdDataDirMigration(Path dataDir) {
        this.dataDir = dataDir;
    }

    /** Is there a real etcd's member here: {@code member/snap/db} a bbolt file? */
    public static boolean isEtcdDataDir(Path dataDir) {
        Path db = DataDirLayout.of(dataDir).backendFile();
        return Files.isRegularFile(db) && BboltReader.looksLikeBbolt(db);
    }

    /**
     * Migrates {@code dataDir} if it holds a real etcd's member, first finishing a migration a
     * crash cut short; empty when there was nothing to migrate. {@code walDir} is the server's
     * --wal-dir (null for the default place).
     */
    public static Optional<Report> migrateIfEtcd(Path dataDir, Path walDir, Lock lock) throws DataDirException {
        boolean begun = Files.exists(dataDir.resolve(BUILDING)) || Files.exists(dataDir.resolve(BUILT));
        if (!begun && !isEtcdDataDir(dataDir)) {
            return Optional.empty();
        }
        // the member dir's lock, so that a second process cannot take another's build for a crash's
        // leftover; between the two renames there is no member dir to lock, only a finished build
        boolean lockable = Files.isDirectory(dataDir.resolve("member"));
        try (AutoCloseable held = lockable ? lock.take() : null) {
            EtcdDataDirMigration m = new EtcdDataDirMigration(dataDir);
            m.finishInterrupted();
            if (!isEtcdDataDir(dataDir)) {
                return Optional.empty();
            }
            if (walDir != null) {
                throw new DataDirException("data-dir " + dataDir + " holds a real etcd's member; starting on it with "
                        + "--wal-dir is not supported: move etcd's WAL directory to " + DataDirLayout.of(dataDir).walPath()
                        + " and start without --wal-dir");
            }
            if (Files.exists(dataDir.resolve(ETCD_FILES))) {
                throw new DataDirException("data-dir " + dataDir + " holds a real etcd's member and " + ETCD_FILES
                        + " (the etcd files of an earlier migration): move " + ETCD_FILES + " elsewhere and start again");
            }
            return Optional.of(m.migrate());
        } catch (DataDirException e) {
            throw e;
        } catch (Exception e) {
            throw new DataDirException("cannot migrate etcd data-dir " + dataDir + ": " + e.getMessage(), e);
        }
    }

    /**
     * After a crash: an unfinished build is removed (etcd's files are untouched then); a finished
     * one is put in place, whichever of the two renames is missing.
     */
    void finishInterrupted() throws DataDirException {
        Path building = dataDir.resolve(BUILDING);
        Path built = dataDir.resolve(BUILT);
        Path member = dataDir.resolve("member");
        try {
            if (Files.exists(building)) {
                ScratchBackend.deleteTree(building);
                Fsync.dir(dataDir);
            }
            if (!Files.exists(built)) {
                return;
            }
            if (Files.exists(member)) {
                move(member, dataDir.resolve(ETCD_FILES));
            }
            move(built, member);
        } catch (IOException e) {
            throw new DataDirException("cannot finish the interrupted migration of " + dataDir + ": " + e.getMessage(), e);
        }
    }

    private void move(Path from, Path to) throws IOException {
        Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
        Fsync.dir(dataDir);
    }

    private Report migrate() throws DataDirException {
        DataDirLayout etcd = DataDirLayout.of(dataDir);
        Path building = dataDir.resolve(BUILDING);
        try {
            EtcdWal wal = EtcdWal.read(etcd.walPath());
            Optional<Snapshot> snap = EtcdSnapFiles.newestMarked(etcd.snapDir(), wal.snapshots());
            Path snapDir = building.resolve("snap");
            Fsync.createDirectories(snapDir);
            Path db = snapDir.resolve("db");
            EtcdImport.convert(SnapshotFile.of(etcd.backendFile(), "open"), db);
            Report report = writeMember(wal, snap, db, building);
            Fsync.dir(snapDir);
            Fsync.dir(building);
            move(building, dataDir.resolve(BUILT));
            finishInterrupted();
            return report;
        } catch (IOException e) {
            ScratchBackend.deleteTree(building);
            throw new DataDirException("cannot migrate etcd data-dir " + dataDir + ": " + e.getMessage(), e);
        } catch (DataDirException | RuntimeException e) {
            ScratchBackend.deleteTree(building);
            throw e;
        }
    }

    private Report writeMember(EtcdWal wal, Optional<Snapshot> snap, Path db, Path member)
            throws DataDirException, IOException {
        long snapIndex = snap.map(s -> s.getMetadata().getIndex()).orElse(0L);
        long applied;
        long term;
        ConfState conf;
        int members;
        try (Backend backend = Backends.open(db); WriteTx tx = backend.beginWrite()) {
            byte[] ci = tx.get(Bucket.META, MetaKeys.CONSISTENT_INDEX);
            applied = ci == null ? 0 : Bytes.toLong(ci);
            if (applied < snapIndex) {
                throw new DataDirException("etcd member/snap/db has applied up to index " + applied
                        + ", behind the Raft snapshot at " + snapIndex + " (etcd would fetch the newer database from "
                        + "its leader): not migrated");
            }
            term = applied == 0 ? 0 : wal.termAt(applied);
            if (term < 0) {
                throw new DataDirException("etcd WAL holds neither entry " + applied + " (the last one member/snap/db "
                        + "applied) nor a snapshot at it: not migrated");
            }
            Membership membership = membershipAt(wal, snap, applied, tx);
            conf = confState(membership);
            members = membership.members().size();
            if (applied > 0) {
                tx.put(Bucket.META, MetaKeys.TERM, Bytes.longBytes(term));
            }
            tx.commit();
        } catch (BackendException e) {
            throw new DataDirException("cannot write " + db + ": " + e.getMessage(), e);
        }
        // LMDB's reader table beside the file: the server makes its own
        Files.deleteIfExists(db.resolveSibling(db.getFileName() + "-lock"));

        List<Entry> carried = new ArrayList<>();
        for (Entry e : wal.entries().tailMap(applied, false).values()) {
            carried.add(EtcdEntries.convert(e));
        }
        HardState hs = wal.hardState();
        HardState state = hs.toBuilder().setTerm(Math.max(hs.getTerm(), term)).setCommit(Math.max(hs.getCommit(), applied))
                .build();
        byte[] meta = WalMetadata.newBuilder().setMemberId(wal.memberId()).setClusterId(wal.clusterId()).build().toByteArray();
        try (Wal ours = Wal.create(member.resolve("wal"), meta, WalOptions.DEFAULT)) {
            if (applied > 0) {
                new Snapshotter(member.resolve("snap")).save(Snapshot.newBuilder().setMetadata(SnapshotMetadata.newBuilder()
                        .setIndex(applied).setTerm(term).setConfState(conf)).build());
                ours.saveSnapshot(new WalSnapshot(applied, term, conf));
            }
            ours.save(state, carried);
        }
        return new Report(wal.memberId(), wal.clusterId(), applied, term, members, carried.size(),
                dataDir.resolve(ETCD_FILES));
    }

    /**
     * The members as etcd 3.4 knew them at {@code applied}: its snapshot's v2 store, then the log's
     * conf changes and published attributes after the snapshot. Entries the snapshot covers only
     * give names to members it lists without one (the real restore writes no names into the v2
     * store; the conf changes it logs carry them).
     */
    private static Membership membershipAt(EtcdWal wal, Optional<Snapshot> snap, long applied, WriteTx tx)
            throws DataDirException {
        Membership membership = new Membership();
        long snapIndex = 0;
        if (snap.isPresent()) {
            snapIndex = snap.get().getMetadata().getIndex();
            EtcdMembers.loadV2Store(snap.get().getData().toByteArray(), membership, tx);
        }
        for (Entry e : wal.entries().headMap(applied, true).values()) {
            if (e.getType() == EntryType.EntryConfChange) {
                ConfChange cc = EtcdEntries.confChange(e);
                Member m = EtcdEntries.confChangeMember(cc);
                if (e.getIndex() > snapIndex) {
                    membership.apply(tx, cc.getType(), cc.getNodeId(), m);
                } else if (m != null && !m.getName().isEmpty()) {
                    Member known = membership.member(m.getID());
                    if (known != null && known.getName().isEmpty()) {
                        membership.updateAttributes(tx, m.getID(), m.getName(), known.getClientURLsList());
                    }
                }
            } else if (e.getIndex() > snapIndex) {
                MemberAttributes a = EtcdEntries.publishedAttributes(e);
                if (a != null) {
                    membership.updateAttributes(tx, a.getMemberId(), a.getName(), a.getClientUrlsList());
                }
            }
        }
        if (applied > 0 && membership.members().isEmpty()) {
            throw new DataDirException("etcd data-dir: no members found in its Raft snapshot nor in its WAL up to index "
                    + applied + ": not migrated");
        }
        return membership;
    }

    private static ConfState confState(Membership membership) {
        ConfState.Builder conf = ConfState.newBuilder();
        membership.members().stream().map(Member::getID).sorted(Long::compareUnsigned).forEach(id -> {
            if (membership.member(id).getIsLearner()) {
                conf.addLearners(id);
            } else {
                conf.addVoters(id);
            }
        });
        return conf.build();
    }
}
