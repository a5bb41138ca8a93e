package io.etcdj.server.etcdserver;

import com.google.protobuf.InvalidProtocolBufferException;
import io.etcdj.api.etcdserverpb.Member;
import io.etcdj.peerpb.MembersResponse;
import io.etcdj.raft.MemoryRaftStorage;
import io.etcdj.raft.RaftConfig;
import io.etcdj.raft.RawNode;
import io.etcdj.raft.RestartPoint;
import io.etcdj.raftpb.Entry;
import io.etcdj.raftpb.HardState;
import io.etcdj.raftpb.Snapshot;
import io.etcdj.server.apply.StateMachines;
import io.etcdj.server.backend.WriteTx;
import io.etcdj.server.clock.Clock;
import io.etcdj.server.config.ConfigException;
import io.etcdj.server.config.ServerConfig;
import io.etcdj.server.datadir.DataDirException;
import io.etcdj.server.datadir.EtcdDataDirMigration;
import io.etcdj.server.discovery.SrvCluster;
import io.etcdj.server.fileutil.Fsync;
import io.etcdj.server.lease.Lessor;
import io.etcdj.server.log.Log;
import io.etcdj.server.log.LogSink;
import io.etcdj.server.membership.MemberIds;
import io.etcdj.server.metrics.Metrics;
import io.etcdj.server.snap.Snapshotter;
import io.etcdj.server.tls.TlsContexts;
import io.etcdj.server.transport.PeerTransport;
import io.etcdj.server.wal.DiskIo;
import io.etcdj.server.wal.Wal;
import io.etcdj.server.wal.WalOptions;
import io.etcdj.server.wal.WalReadResult;
import io.etcdj.server.wal.WalSnapshot;
import io.etcdj.serverpb.WalMetadata;
import io.netty.handler.ssl.SslContext;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * Opens a member's data directory: a new member bootstraps its cluster from --initial-cluster;
 * a member with a WAL restarts from its newest snapshot and log (and ignores --initial-cluster,
 * as etcd does).
 */
final class Storage {
    /** How long a joining member keeps asking its peers for the cluster (etcd's timeout for that request). */
    private static final long JOIN_PATIENCE_MILLIS = 10_000;
    private static final long JOIN_RETRY_PAUSE_MILLIS = 250;
    /** The member's logger (its sink, see MemberContext). */
    private final Log log;

    record Opened(StateMachines stateMachines, RawNode node, MemoryRaftStorage storage, Wal wal,
                  Snapshotter snapshotter, long memberId, long snapshotIndex, boolean fresh, DataDirLock lock) {
    }

    private final LogSink logs;

    private Storage(LogSink logs) {
        this.logs = logs;
        this.log = logs.logger("etcdserver/storage");
    }

    /**
     * Opens the data directory; the lessor keeps time on {@code clock}, and Raft draws its
     * randomized election timeouts from {@code random}.
     */
    static Opened open(ServerConfig cfg, Clock clock, Random random, Metrics metrics, LogSink logs)
            throws ConfigException, IOException {
        new Storage(logs).migrateEtcdDataDir(cfg);
        DataDirLock lock = DataDirLock.acquire(cfg.dataDir());
        try {
            for (Path p : LeftoverTempFiles.remove(cfg.dataDir(), cfg.snapDir())) {
                logs.logger("etcdserver/storage").info("removed a leftover temporary file", "path", p.toString());
            }
            Opened o = new Storage(logs).openLocked(cfg, clock, random, metrics);
            return new Opened(o.stateMachines(), o.node(), o.storage(), o.wal(), o.snapshotter(), o.memberId(),
                    o.snapshotIndex(), o.fresh(), lock);
        } catch (ConfigException | IOException | RuntimeException e) {
            lock.close();
            throw e;
        }
    }

    /** A real etcd's data dir (bbolt backend, etcd's WAL) becomes ours before anything opens it. */
    private void migrateEtcdDataDir(ServerConfig cfg) throws IOException {
        long start = System.nanoTime();
        try {
            EtcdDataDirMigration.migrateIfEtcd(cfg.dataDir(), cfg.walDir(), () -> DataDirLock.acquire(cfg.dataDir()))
                    .ifPresent(r -> log.info("migrated a real etcd's data dir to this server's format",
                            "data-dir", cfg.dataDir().toString(), "local-member-id", MemberIds.hex(r.memberId()),
                            "cluster-id", MemberIds.hex(r.clusterId()), "consistent-index", r.consistentIndex(),
                            "term", r.term(), "members", r.members(), "log-entries-carried", r.entriesCarried(),
                            "etcd-files-kept-in", r.etcdFiles().toString(),
                            "took", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) + "ms"));
        } catch (DataDirException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    private Opened openLocked(ServerConfig cfg, Clock clock, Random random, Metrics metrics)
            throws ConfigException, IOException {
        Path walDir = cfg.walPath();
        ConflictingClusterCheck conflictCheck = conflictCheckAhead(cfg, walDir);
        Fsync.createDirectories(cfg.snapDir());
        WalOptions walOptions = WalOptions.builder().unsafeNoFsync(cfg.unsafeNoFsync()).maxWals(cfg.maxWals())
                .fsyncDurationNanos(metrics.walFsync::observeNanos).writtenBytes(metrics.walWriteBytes::inc).build();
        Snapshotter snapshotter = new Snapshotter(cfg.snapDir(), DiskIo.real(), metrics.snap);
        long minTtl = Lessor.minTtlSeconds(cfg.heartbeatMillis(), cfg.electionTicks());
        StateMachines sm = StateMachines.open(cfg.backendFile(), cfg.quotaBackendBytes(), clock::nanoTime, minTtl, metrics,
                logs, cfg.unsafeNoFsync());
        try {
            BootstrapDefrag.maybeDefragment(sm.backend, cfg.options().bootstrapDefragThresholdMegabytes(), metrics,
                    logs.logger("etcdserver/bootstrap"));
            return Wal.exists(walDir)
                    ? restart(cfg, sm, walDir, walOptions, snapshotter, random)
                    : bootstrap(cfg, sm, walDir, walOptions, snapshotter, random, conflictCheck);
        } catch (ConfigException | IOException | RuntimeException e) {
            sm.close();
            throw e;
        }
    }

    private RaftConfig.Builder raftConfig(ServerConfig cfg, long id, Random random) {
        return RaftConfig.builder().id(id).electionTick((int) cfg.electionTicks()).heartbeatTick(1)
                .checkQuorum(true).preVote(cfg.preVote()).random(random).asyncApply(true);
    }

    /**
     * Advertised and listed peer URLs may differ in spelling only (a --discovery-srv record names
     * the host, the member advertises its address): etcd compares them resolved.
     */
    private boolean sameEndpoints(List<URI> advertised, List<URI> listed) {
        if (advertised.size() != listed.size()) {
            return false;
        }
        for (URI a : advertised) {
            if (listed.stream().noneMatch(l -> SrvCluster.sameEndpoint(a, l))) {
                return false;
            }
        }
        return true;
    }

    /**
     * A new member's check for a peer that runs another cluster, started before the backend opens
     * (null when this start is a restart or a join, or when the flags do not describe a cluster:
     * {@link #bootstrap} then reports them).
     */
    private static ConflictingClusterCheck conflictCheckAhead(ServerConfig cfg, Path walDir) {
        List<URI> mine = cfg.initialCluster().get(cfg.name());
        if (!cfg.initialClusterStateNew() || mine == null || Wal.exists(walDir)) {
            return null;
        }
        try {
            InitialCluster c = InitialCluster.of(cfg, mine);
            return ConflictingClusterCheck.start(c.otherPeers(), c.clusterId(), TlsContexts.peerClientFor(cfg));
        } catch (ConfigException e) {
            return null;
        }
    }

    /** The cluster the initial-cluster flags describe: its members, this member's ID and the cluster's. */
    private record InitialCluster(List<Member> members, long memberId, long clusterId, List<String> otherPeers) {
        static InitialCluster of(ServerConfig cfg, List<URI> mine) {
            List<Member> members = new ArrayList<>();
            for (Map.Entry<String, List<URI>> e : cfg.initialCluster().entrySet()) {
                List<String> urls = e.getValue().stream().map(URI::toString).toList();
                long id = MemberIds.memberId(urls, cfg.initialClusterToken(), null);
                members.add(Member.newBuilder().setID(id).setName(e.getKey()).addAllPeerURLs(urls).build());
            }
            long memberId = MemberIds.memberId(mine.stream().map(URI::toString).sorted().toList(), cfg.initialClusterToken(), null);
            long clusterId = MemberIds.clusterId(members.stream().map(Member::getID).toList());
            List<String> otherPeers = members.stream().filter(m -> m.getID() != memberId)
                    .flatMap(m -> m.getPeerURLsList().stream()).toList();
            return new InitialCluster(members, memberId, clusterId, otherPeers);
        }
    }

    private Opened bootstrap(ServerConfig cfg, StateMachines sm, Path walDir, WalOptions walOptions,
                             Snapshotter snapshotter, Random random, ConflictingClusterCheck conflictCheck)
            throws ConfigException, IOException {
        Map<String, List<URI>> cluster = cfg.initialCluster();
        List<URI> mine = cluster.get(cfg.name());
        if (mine == null) {
            throw new ConfigException(cfg.name() + " not listed in the initial cluster config");
        }
        List<String> advertised = cfg.initialAdvertisePeerUrls().stream().map(URI::toString).sorted().toList();
        List<String> listed = mine.stream().map(URI::toString).sorted().toList();
        if (!advertised.equals(listed) && !sameEndpoints(cfg.initialAdvertisePeerUrls(), mine)) {
            throw new ConfigException("error setting up initial cluster: " + cfg.name()
                    + " has different advertised URLs in the cluster and advertised peer URLs list");
        }
        InitialCluster initial = InitialCluster.of(cfg, mine);
        List<Member> members = initial.members();
        long memberId = initial.memberId();
        long clusterId = initial.clusterId();
        List<String> otherPeers = initial.otherPeers();
        boolean joining = !cfg.initialClusterStateNew();
        if (joining) {
            MembersResponse remote = fetchCluster(otherPeers, cfg);
            Member me = remote.getMembersList().stream()
                    .filter(m -> m.getPeerURLsList().stream().sorted().toList().equals(listed)).findFirst()
                    .orElseThrow(() -> new ConfigException("error validating peerURLs " + remote.getMembersList()
                            + ": member not found in the cluster; add it with 'etcdctl member add' first"));
            if (remote.getMembersList().size() != members.size()) {
                throw new ConfigException("error validating peerURLs: member count is unequal");
            }
            members = remote.getMembersList();
            clusterId = remote.getClusterId();
            // A member added at runtime has an ID made with the time of its addition: take the cluster's.
            memberId = me.getID();
        } else {
            (conflictCheck != null ? conflictCheck
                    : ConflictingClusterCheck.start(otherPeers, clusterId, TlsContexts.peerClientFor(cfg))).await();
        }
        sm.membership.setClusterId(clusterId);
        final long selfId = memberId;
        try (WriteTx tx = sm.backend.beginWrite()) {
            for (Member m : members) {
                // Only this member's name is known for sure; peers publish theirs once they start.
                sm.membership.add(tx, m.getID() == selfId ? m.toBuilder().setName(cfg.name()).build()
                        : (joining ? m : m.toBuilder().setName("").build()));
            }
            tx.commit();
        }
        // Once the WAL exists a start is a restart, which takes the members from the backend: they
        // must be on disk first (a power cut right after a join otherwise left a WAL and a member
        // that knew no peer to answer its leader).
        sm.backend.sync();
        byte[] meta = WalMetadata.newBuilder().setMemberId(memberId).setClusterId(clusterId).build().toByteArray();
        Wal wal = Wal.create(walDir, meta, walOptions);
        MemoryRaftStorage storage = new MemoryRaftStorage();
        RawNode node = RawNode.create(raftConfig(cfg, memberId, random).build(), storage);
        if (!joining) {
            node.bootstrap(members.stream().map(Member::getID).sorted(Long::compareUnsigned).toList());
        }
        log.info("starting local member", "local-member-id", MemberIds.hex(memberId),
                "cluster-id", MemberIds.hex(clusterId), "initial-cluster-state", joining ? "existing" : "new");
        return new Opened(sm, node, storage, wal, snapshotter, memberId, 0, true, null);
    }

    /**
     * Joining: the cluster as a running member reports it. The peers are asked in turn for up to
     * {@link #JOIN_PATIENCE_MILLIS} (etcd's timeout for this request): a member added to a cluster
     * that is restarting at the same moment (a power cut took every member) finds its peers once
     * they listen, instead of giving up at the first refused connection.
     */
    private MembersResponse fetchCluster(List<String> peers, ServerConfig cfg) throws ConfigException {
        SslContext peerTls = TlsContexts.peerClientFor(cfg);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(JOIN_PATIENCE_MILLIS);
        for (int round = 0; ; round++) {
            for (String url : peers) {
                try {
                    return PeerTransport.fetchMembers(url, Math.max(3000, 2 * cfg.electionMillis()), peerTls);
                } catch (RuntimeException e) {
                    if (round == 0) {
                        log.warn("failed to get cluster from peer", "remote-peer-url", url, "error", String.valueOf(e.getMessage()));
                    }
                }
            }
            if (System.nanoTime() - deadline >= 0) {
                break;
            }
            try {
                Thread.sleep(JOIN_RETRY_PAUSE_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        throw new ConfigException("cannot fetch cluster info from peer urls: could not retrieve cluster information from the given URLs");
    }

    /**
     * A member that crashed after saving a leader's snapshot but before installing its database
     * file has a backend behind the snapshot: the entries between them are no longer in the log,
     * so the file kept under the snapshot's index is installed now. Leftover files of snapshots the
     * backend already covers are removed.
     */
    private void catchUpBackendToSnapshot(ServerConfig cfg, StateMachines sm, long snapIndex, Wal wal)
            throws IOException {
        Path db = SnapshotDb.path(cfg.snapDir(), snapIndex);
        if (snapIndex > sm.consistentIndex()) {
            if (!Files.exists(db)) {
                wal.close();
                throw new IOException("the backend (consistent index " + sm.consistentIndex()
                        + ") is behind the newest snapshot (index " + snapIndex + ") and the snapshot's database file "
                        + db + " is missing");
            }
            log.info("installing the database file of the newest snapshot", "snapshot-index", snapIndex,
                    "consistent-index", sm.consistentIndex());
            sm.installSnapshot(db);
        }
        try (var files = Files.list(cfg.snapDir())) {
            for (Path p : files.filter(f -> f.getFileName().toString().endsWith(".snap.db")).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    private Opened restart(ServerConfig cfg, StateMachines sm, Path walDir, WalOptions walOptions,
                                  Snapshotter snapshotter, Random random) throws IOException {
        List<WalSnapshot> valid = Wal.validSnapshots(walDir, walOptions);
        Optional<Snapshot> snap = snapshotter.loadNewestAvailable(valid::contains);
        WalSnapshot start = snap.map(s -> new WalSnapshot(s.getMetadata().getIndex(), s.getMetadata().getTerm(),
                s.getMetadata().getConfState())).orElse(WalSnapshot.NONE);
        Wal wal = Wal.open(walDir, start, walOptions);
        WalReadResult rr = wal.readAll();
        WalMetadata meta;
        try {
            meta = WalMetadata.parseFrom(rr.metadata());
        } catch (InvalidProtocolBufferException e) {
            wal.close();
            throw new IOException("unreadable WAL metadata in " + walDir, e);
        }
        sm.membership.setClusterId(meta.getClusterId());
        if (sm.membership.isRemoved(meta.getMemberId())) {
            wal.close();
            throw new IOException("the member has been permanently removed from the cluster; "
                    + "the data-dir used by this member must be removed");
        }
        MemoryRaftStorage storage = new MemoryRaftStorage();
        snap.ifPresent(storage::applySnapshot);
        HardState hs = rr.hardState();
        List<Entry> entries = rr.entries();
        if (cfg.forceNewCluster()) {
            ForcedCluster forced = ForcedCluster.of(meta.getMemberId(), snap.orElse(null), hs, entries);
            wal.save(forced.hardState(), forced.appended());
            hs = forced.hardState();
            entries = forced.entries();
            log.info("forcing restart member", "local-member-id", MemberIds.hex(meta.getMemberId()),
                    "commit-index", hs.getCommit());
        }
        storage.setHardState(hs);
        storage.append(entries);
        long snapIndex = snap.map(s -> s.getMetadata().getIndex()).orElse(0L);
        catchUpBackendToSnapshot(cfg, sm, snapIndex, wal);
        // Raft starts with the membership the backend has reached, never an older one (see RestartPoint).
        RestartPoint at = RestartPoint.of(snap.orElse(null), hs, entries, sm.consistentIndex());
        storage.setConfState(at.confState());
        RawNode node = RawNode.create(raftConfig(cfg, meta.getMemberId(), random).applied(at.applied()).build(), storage);
        log.info("restarting local member", "local-member-id", MemberIds.hex(meta.getMemberId()),
                "cluster-id", MemberIds.hex(meta.getClusterId()), "commit-index", hs.getCommit(),
                "applied-index", at.applied(), "voters", at.confState().getVotersList().stream()
                        .map(MemberIds::hex).toList().toString());
        return new Opened(sm, node, storage, wal, snapshotter, meta.getMemberId(), snapIndex, false, null);
    }
}
