package io.etcdj.server.etcdserver;

import io.etcdj.api.etcdserverpb.AlarmMember;
import io.etcdj.api.etcdserverpb.AlarmRequest;
import io.etcdj.api.etcdserverpb.AlarmResponse;
import io.etcdj.api.etcdserverpb.AlarmType;
import io.etcdj.api.etcdserverpb.DowngradeRequest;
import io.etcdj.api.etcdserverpb.DowngradeResponse;
import io.etcdj.api.etcdserverpb.HashKVResponse;
import io.etcdj.api.etcdserverpb.HashResponse;
import io.etcdj.api.etcdserverpb.MoveLeaderResponse;
import io.etcdj.api.etcdserverpb.ResponseHeader;
import io.etcdj.api.etcdserverpb.StatusResponse;
import io.etcdj.server.api.Caller;
import io.etcdj.server.api.MaintenanceOperations;
import io.etcdj.server.apply.AlarmStore;
import io.etcdj.server.apply.DowngradeStore;
import io.etcdj.server.backend.Backend;
import io.etcdj.server.backend.Bucket;
import io.etcdj.server.backend.ReadTx;
import io.etcdj.server.datadir.DataDirException;
import io.etcdj.server.datadir.EtcdExport;
import io.etcdj.server.error.EtcdError;
import io.etcdj.server.log.Log;
import io.etcdj.server.log.LogSink;
import io.etcdj.server.metrics.Metrics;
import io.etcdj.server.mvcc.CompactionHashes;
import io.etcdj.server.mvcc.MvccStore;
import io.etcdj.server.mvcc.ReadView;
import io.etcdj.server.version.Versions;
import io.etcdj.serverpb.DowngradeInfoSet;
import io.etcdj.serverpb.InternalRaftRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.CRC32C;

/** Maintenance: status, alarms, leader moves, defragment, hashes and the snapshot file (etcd's bbolt format). */
final class MaintenanceOps implements MaintenanceOperations {
    private static final Pattern VERSION = Pattern.compile("(\\d+)\\.(\\d+)(?:\\.\\d+)?");

    private final Log log;
    private final Proposer proposer;
    private final Reads reads;
    /** Headers, Status and the cluster version. */
    private final MemberState member;
    private final AlarmStore alarms;
    private final DowngradeStore downgrade;
    private final MvccStore store;
    private final Backend backend;
    /** Hands leadership to a member; completes when it leads. */
    private final LongFunction<CompletableFuture<Void>> moveLeader;
    /** Where snapshot files are written: the data dir, on the backend's file system. */
    private final Path dataDir;
    private final Metrics metrics;

    MaintenanceOps(Proposer proposer, Reads reads, MemberState member, AlarmStore alarms, DowngradeStore downgrade,
                   MvccStore store, Backend backend, LongFunction<CompletableFuture<Void>> moveLeader, Path dataDir,
                   Metrics metrics, LogSink logs) {
        this.log = logs.logger("etcdserver/server");
        this.proposer = proposer;
        this.reads = reads;
        this.member = member;
        this.alarms = alarms;
        this.downgrade = downgrade;
        this.store = store;
        this.backend = backend;
        this.moveLeader = moveLeader;
        this.dataDir = dataDir;
        this.metrics = metrics;
    }

    @Override
    public StatusResponse status() {
        return member.status();
    }

    @Override
    public AlarmResponse alarms(AlarmRequest r) {
        AlarmResponse.Builder b = AlarmResponse.newBuilder().setHeader(member.header());
        for (AlarmMember a : alarms.list()) {
            if (r.getAlarm() == AlarmType.NONE || a.getAlarm() == r.getAlarm()) {
                b.addAlarms(a);
            }
        }
        return b.build();
    }

    @Override
    public CompletableFuture<AlarmResponse> changeAlarm(Caller caller, AlarmRequest r) {
        return proposer.propose(caller, InternalRaftRequest.newBuilder().setAlarm(r)).thenApply(res ->
                ((AlarmResponse) res.response()).toBuilder().setHeader(member.header(res.revision())).build());
    }

    @Override
    public CompletableFuture<MoveLeaderResponse> moveLeader(long target) {
        return moveLeader.apply(target).thenApply(x -> MoveLeaderResponse.newBuilder().setHeader(member.header()).build());
    }

    @Override
    public void defragment() {
        log.info("starting defragment", "current-db-size-bytes", backend.size());
        long started = System.nanoTime();
        metrics.defragInflight.set(1);
        try {
            backend.defragment();
        } finally {
            metrics.defragInflight.set(0);
        }
        metrics.backendDefrag.observeNanos(System.nanoTime() - started);
        log.info("finished defragment", "current-db-size-bytes", backend.size());
    }

    @Override
    public HashResponse hash() {
        CRC32C crc = new CRC32C();
        long start = System.nanoTime();
        try (ReadView v = store.openRead()) {
            ReadTx tx = v.backendRead();
            for (Bucket b : Bucket.values()) {
                if (b == Bucket.META) {
                    continue; // holds the consistent index, which differs between members
                }
                crc.update(b.dbName().getBytes());
                tx.forEach(b, null, null, (k, val) -> {
                    crc.update(k);
                    crc.update(val);
                    return true;
                });
            }
            metrics.hash.since(start);
            return HashResponse.newBuilder().setHeader(member.header(v.revision())).setHash((int) crc.getValue()).build();
        }
    }

    /**
     * The HashKV RPC as etcd 3.4 answers it: a revision at or below the compaction is refused
     * as compacted (etcd 3.5+ accepts the compaction revision itself; the peer check below does).
     */
    @Override
    public HashKVResponse hashKv(long revision) {
        try (ReadView v = store.openRead()) {
            checkHashRevision(v, revision, revision > 0 && revision <= v.compactRevision());
            return hashKvOf(v, revision);
        }
    }

    /**
     * HashKV for a peer's corruption checks, as etcd 3.5+ serves it: the hash recorded at a
     * compaction when {@code revision} is one (the compaction hash check compares those), else
     * the hash of the store, where the compaction revision itself may be asked for.
     */
    HashKVResponse peerHashKv(long revision) {
        CompactionHashes.Entry cached = store.compactionHashes().at(revision);
        try (ReadView v = store.openRead()) {
            if (cached != null) {
                return HashKVResponse.newBuilder().setHeader(member.header(v.revision())).setHash((int) cached.hash())
                        .setCompactRevision(cached.compactRevision()).setHashRevision(cached.revision()).build();
            }
            checkHashRevision(v, revision, revision > 0 && revision < v.compactRevision());
            return hashKvOf(v, revision);
        }
    }

    private static void checkHashRevision(ReadView v, long revision, boolean compacted) {
        if (compacted) {
            throw EtcdError.COMPACTED.exception();
        }
        if (revision > v.revision()) {
            throw EtcdError.FUTURE_REV.exception();
        }
    }

    private HashKVResponse hashKvOf(ReadView v, long revision) {
        long start = System.nanoTime();
        long[] h = v.hashKv(revision);
        metrics.hashRev.since(start);
        return HashKVResponse.newBuilder().setHeader(member.header(v.revision()))
                .setHash((int) h[0]).setCompactRevision(v.compactRevision()).setHashRevision(h[1]).build();
    }

    /**
     * etcd's snapshot file (bbolt, etcd's buckets; no trailer) of the last committed batch, built
     * from one backend read view into a new file in the data dir (the same file system as the
     * backend: a large database must not land in a memory-backed temporary directory). The read
     * view is held only while the file is written, at disk speed: it holds the backend's
     * environment lock for reading, which the map growth of a large write, defragment and a
     * snapshot install take exclusively, so it must not wait on a slow client.
     */
    @Override
    public Path writeSnapshot() throws IOException {
        Path dir = dataDir.toAbsolutePath();
        Path tmp = Files.createTempFile(dir, "snapshot", ".bbolt.tmp");
        // the bbolt writer creates its file itself (and refuses an existing one)
        Files.delete(tmp);
        try {
            long start = System.nanoTime();
            try (ReadTx tx = backend.beginRead()) {
                EtcdExport.writeBbolt(tx, tmp);
            }
            metrics.backendSnapshot.since(start);
            return tmp;
        } catch (DataDirException e) {
            Files.deleteIfExists(tmp);
            throw new IOException(e.getMessage(), e);
        } catch (RuntimeException e) {
            Files.deleteIfExists(tmp);
            throw e;
        }
    }

    @Override
    public ResponseHeader header() {
        return member.header();
    }

    @Override
    public CompletableFuture<DowngradeResponse> downgrade(Caller caller, DowngradeRequest r) {
        return reads.barrier().thenCompose(x -> switch (r.getAction()) {
            case VALIDATE -> {
                validate(r.getVersion());
                yield CompletableFuture.completedFuture(response(member.clusterVersion()));
            }
            case ENABLE -> {
                String target = validate(r.getVersion());
                String before = member.clusterVersion();
                yield proposer.propose(caller, InternalRaftRequest.newBuilder().setDowngradeInfoSet(
                        DowngradeInfoSet.newBuilder().setEnabled(true).setVer(target))).thenApply(res -> response(before));
            }
            case CANCEL -> {
                if (!downgrade.info().enabled()) {
                    throw EtcdError.NO_INFLIGHT_DOWNGRADE.exception();
                }
                yield proposer.propose(caller, InternalRaftRequest.newBuilder().setDowngradeInfoSet(
                        DowngradeInfoSet.newBuilder().setEnabled(false)))
                        .thenApply(res -> response(member.clusterVersion()));
            }
            default -> throw EtcdError.UNKNOWN_METHOD.exception();
        });
    }

    /**
     * etcd's rules: the target is "X.Y" or "X.Y.Z", exactly one minor version below the cluster
     * version, and no downgrade job may be running. Returns the target as a cluster version X.Y.0.
     */
    private String validate(String version) {
        Matcher m = VERSION.matcher(version.trim());
        if (!m.matches()) {
            throw EtcdError.WRONG_DOWNGRADE_VERSION_FORMAT.exception();
        }
        String target = m.group(1) + "." + m.group(2) + ".0";
        // one minor below the version this member runs (the cluster version itself drops to the
        // target while a job runs, and a second job is refused as in progress)
        String[] cv = Versions.CLUSTER.split("\\.");
        String allowed = cv[0] + "." + (Integer.parseInt(cv[1]) - 1) + ".0";
        if (!target.equals(allowed)) {
            throw EtcdError.INVALID_DOWNGRADE_TARGET_VERSION.exception();
        }
        if (downgrade.info().enabled()) {
            throw EtcdError.DOWNGRADE_IN_PROCESS.exception();
        }
        return target;
    }

    /** The response names the cluster version as etcd does: major.minor. */
    private DowngradeResponse response(String clusterVersion) {
        String[] v = clusterVersion.split("\\.");
        return DowngradeResponse.newBuilder().setHeader(member.header()).setVersion(v[0] + "." + v[1]).build();
    }
}
