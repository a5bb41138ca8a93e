package io.etcdj.server;

import com.google.protobuf.InvalidProtocolBufferException;
import io.etcdj.api.etcdserverpb.Member;
import io.etcdj.raftpb.Snapshot;
import io.etcdj.server.apply.StateMachines;
import io.etcdj.server.backend.WriteTx;
import io.etcdj.server.config.ConfigException;
import io.etcdj.server.config.ServerConfig;
import io.etcdj.server.lease.Lessor;
import io.etcdj.server.log.Log;
import io.etcdj.server.membership.MemberIds;
import io.etcdj.server.raft.MemoryRaftStorage;
import io.etcdj.server.raft.RaftConfig;
import io.etcdj.server.raft.RawNode;
import io.etcdj.server.snap.Snapshotter;
import io.etcdj.server.wal.Wal;
import io.etcdj.server.wal.WalOptions;
import io.etcdj.server.wal.WalReadResult;
import io.etcdj.server.wal.WalSnapshot;
import io.etcdj.serverpb.WalMetadata;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

/**
 * Opens a member's data directory: a new member bootstraps its cluster from --initial-cluster;
 * a member with a WAL restarts from its newest snapshot and log (and ignores --initial-cluster,
 * as etcd does).
 */
final class Storage {
    private static final Log LOG = Log.get("etcdserver/storage");

    record Opened(StateMachines stateMachines, RawNode node, MemoryRaftStorage storage, Wal wal,
                  Snapshotter snapshotter, long memberId, long snapshotIndex, boolean fresh) {
    }

    private Storage() {
    }

    static Opened open(ServerConfig cfg) throws ConfigException, IOException {
        Path walDir = cfg.walPath();
        Files.createDirectories(cfg.snapDir());
        WalOptions walOptions = WalOptions.builder().unsafeNoFsync(cfg.unsafeNoFsync()).maxWals(cfg.maxWals())
                .fsyncDurationNanos(Metrics.WAL_FSYNC::observeNanos).build();
        Snapshotter snapshotter = new Snapshotter(cfg.snapDir());
        long minTtl = Lessor.minTtlSeconds(cfg.heartbeatMillis(), cfg.electionTicks());
        StateMachines sm = StateMachines.open(cfg.backendFile(), cfg.quotaBackendBytes(), System::nanoTime, minTtl);
        try {
            return Wal.exists(walDir)
                    ? restart(cfg, sm, walDir, walOptions, snapshotter)
                    : bootstrap(cfg, sm, walDir, walOptions, snapshotter);
        } catch (ConfigException | IOException | RuntimeException e) {
            sm.close();
            throw e;
        }
    }

    private static RaftConfig.Builder raftConfig(ServerConfig cfg, long id) {
        return RaftConfig.builder().id(id).electionTick((int) cfg.electionTicks()).heartbeatTick(1)
                .checkQuorum(true).preVote(cfg.preVote()).random(new Random());
    }

    private static Opened bootstrap(ServerConfig cfg, StateMachines sm, Path walDir, WalOptions walOptions,
                                    Snapshotter snapshotter) throws ConfigException, IOException {
        if (!cfg.initialClusterStateNew()) {
            throw new ConfigException("joining an existing cluster needs the multi-member transport, which this member cannot reach: "
                    + "start it with --initial-cluster-state new");
        }
        Map<String, List<URI>> cluster = cfg.initialCluster();
        List<URI> mine = cluster.get(cfg.name());
        if (mine == null) {
            throw new ConfigException("couldn't find local name \"" + cfg.name() + "\" in the initial cluster configuration");
        }
        List<String> advertised = cfg.initialAdvertisePeerUrls().stream().map(URI::toString).sorted().toList();
        List<String> listed = mine.stream().map(URI::toString).sorted().toList();
        if (!advertised.equals(listed)) {
            throw new ConfigException("--initial-cluster has " + cfg.name() + "=" + String.join(",", listed)
                    + " but missing from --initial-advertise-peer-urls=" + String.join(",", advertised));
        }
        List<Member> members = new ArrayList<>();
        for (Map.Entry<String, List<URI>> e : cluster.entrySet()) {
            List<String> urls = e.getValue().stream().map(URI::toString).toList();
            long id = MemberIds.memberId(urls, cfg.initialClusterToken(), null);
            members.add(Member.newBuilder().setID(id).setName(e.getKey()).addAllPeerURLs(urls).build());
        }
        long memberId = MemberIds.memberId(listed, cfg.initialClusterToken(), null);
        long clusterId = MemberIds.clusterId(members.stream().map(Member::getID).toList());
        sm.membership.setClusterId(clusterId);
        try (WriteTx tx = sm.backend.beginWrite()) {
            for (Member m : members) {
                // Only this member's name is known for sure; peers publish theirs once they start.
                sm.membership.add(tx, m.getID() == memberId ? m : m.toBuilder().setName("").build());
            }
            tx.commit();
        }
        byte[] meta = WalMetadata.newBuilder().setMemberId(memberId).setClusterId(clusterId).build().toByteArray();
        Wal wal = Wal.create(walDir, meta, walOptions);
        MemoryRaftStorage storage = new MemoryRaftStorage();
        RawNode node = RawNode.create(raftConfig(cfg, memberId).build(), storage);
        node.bootstrap(members.stream().map(Member::getID).sorted(Long::compareUnsigned).toList());
        LOG.info("starting local member", "local-member-id", MemberIds.hex(memberId),
                "cluster-id", MemberIds.hex(clusterId));
        return new Opened(sm, node, storage, wal, snapshotter, memberId, 0, true);
    }

    private static Opened restart(ServerConfig cfg, StateMachines sm, Path walDir, WalOptions walOptions,
                                  Snapshotter snapshotter) throws IOException {
        List<WalSnapshot> valid = Wal.validSnapshots(walDir, walOptions);
        Optional<Snapshot> snap = snapshotter.loadNewestAvailable(ws -> valid.stream().anyMatch(v -> v.samePoint(ws)));
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
        MemoryRaftStorage storage = new MemoryRaftStorage();
        snap.ifPresent(storage::applySnapshot);
        storage.setHardState(rr.hardState());
        storage.append(rr.entries());
        long snapIndex = snap.map(s -> s.getMetadata().getIndex()).orElse(0L);
        RawNode node = RawNode.create(raftConfig(cfg, meta.getMemberId()).applied(snapIndex).build(), storage);
        LOG.info("restarting local member", "local-member-id", MemberIds.hex(meta.getMemberId()),
                "cluster-id", MemberIds.hex(meta.getClusterId()), "commit-index", rr.hardState().getCommit());
        return new Opened(sm, node, storage, wal, snapshotter, meta.getMemberId(), snapIndex, false);
    }
}
