package io.etcdj.server.etcdserver;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.HashKVResponse;
import io.etcdj.api.etcdserverpb.LeaseTimeToLiveRequest;
import io.etcdj.api.etcdserverpb.LeaseTimeToLiveResponse;
import io.etcdj.server.api.AuthOperations;
import io.etcdj.server.api.ClusterOperations;
import io.etcdj.server.api.KvOperations;
import io.etcdj.server.api.LeaseOperations;
import io.etcdj.server.api.MaintenanceOperations;
import io.etcdj.server.api.WatchOperations;
import io.etcdj.server.apply.ApplyResult;
import io.etcdj.server.apply.StateMachines;
import io.etcdj.server.auth.TokenProvider;
import io.etcdj.server.auth.Tokens;
import io.etcdj.server.clock.Clock;
import io.etcdj.server.config.AuthOptions;
import io.etcdj.server.config.ConfigException;
import io.etcdj.server.config.ServerConfig;
import io.etcdj.server.error.EtcdError;
import io.etcdj.server.log.Log;
import io.etcdj.server.log.LogSink;
import io.etcdj.server.metrics.Metrics;
import io.etcdj.server.read.ReadBarrier;
import io.etcdj.server.read.ReadDeadlines;
import io.etcdj.server.slowlog.SlowApplies;
import io.etcdj.server.transport.Transporter;
import io.etcdj.server.wait.Waiters;
import io.etcdj.server.watch.ProgressNotifier;
import io.etcdj.server.watch.WatchHub;
import io.etcdj.serverpb.InternalRaftRequest;
import io.etcdj.serverpb.MemberAttributes;
import io.netty.util.internal.ThreadExecutorMap;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A running member's core (etcd's server.go): its lifecycle, proposing a request and waiting for
 * it to be applied, and the read barrier. Every write goes through Raft, a single member too.
 * What surrounds the core has a class of its own: {@link MemberStatus} (headers, Status, gauges),
 * {@link LeaderForwarding}, {@link SnapshotPolicy}, {@link ConfChanges}, {@link MemberAlarms},
 * {@link BackgroundJobs} and {@link ClusterChecks}; the API layer's operations are the adapters
 * {@link KvOps} ... {@link AuthOps}.
 */
public final class EtcdServer implements AutoCloseable {
    /** Sends responses of applied requests, off the apply loop. */
    private final ExecutorService responders = Executors.newFixedThreadPool(2, r -> {
        Thread t = new Thread(r, "respond");
        t.setDaemon(true);
        return t;
    });
    private final ProposalLimits limits = new ProposalLimits();
    /** {@link #propose}, for what the server builds: package-private, not part of the member's API. */
    private final Proposer proposer = this::propose;
    /** The member's logger (its sink, see MemberContext). */
    private final Log log;
    private final ServerConfig config;
    private final StateMachines sm;
    private final WatchHub hub;
    private final Waiters<ApplyResult> waiters;
    private final LinearizableReads reads;
    private final ProgressNotifier progress;
    private final IdGenerator ids;
    private final long memberId;
    private final long requestTimeoutMillis;
    private final Lifecycle lifecycle;
    private final DataDirLock dataDirLock;
    private final RaftLoop raft;
    private final ApplyLoop apply;
    private final Transporter transport;
    /** The member's own instruments, log sink and failpoints (nothing of them is process-wide). */
    private final Metrics metrics;
    private final LogSink logs;
    private final Failpoints failpoints;
    private final MemberAlarms alarms;
    private final MemberStatus status;
    private final SnapshotPolicy snapshots;
    private final LeaderForwarding forwarding;
    private final BackgroundJobs jobs;
    private final ClusterChecks checks;
    private final ConfChanges confChanges;
    private final KvOperations kv;
    private final LeaseOperations leases;
    private final ClusterOperations cluster;
    private final MaintenanceOps maintenance;
    private final WatchOperations watches;
    private final AuthOperations auth;

    EtcdServer(ServerConfig config, MemberContext context, Storage.Opened opened, Runnable onFatal, TransportFactory transports,
               TokenProvider tokens, Clock clock) throws IOException {
        this.config = config;
        this.metrics = context.metrics();
        this.logs = context.logs();
        this.log = logs.logger("etcdserver/server");
        this.failpoints = context.failpoints();
        SlowApplies slowApplies = new SlowApplies(metrics, logs);
        // a call made on a connection's event loop is answered there (see Waiters)
        this.waiters = new Waiters<>(responders, clock::nanoTime, ThreadExecutorMap::currentExecutor);
        this.sm = opened.stateMachines();
        sm.auth.setTokenProvider(tokens);
        this.memberId = opened.memberId();
        this.ids = new IdGenerator(memberId, System.currentTimeMillis());
        // a read's ReadIndex context is a request ID of this member's, unique in the cluster as etcd's
        ReadBarrier barrier = new ReadBarrier(responders, ThreadExecutorMap::currentExecutor, metrics.slowReadIndexes::inc, ids::next);
        this.lifecycle = new Lifecycle(onFatal, logs);
        this.dataDirLock = opened.lock();
        this.hub = new WatchHub(sm.store);
        this.progress = new ProgressNotifier(Math.max(1, config.watchProgressNotifyInterval().toMillis()));
        this.requestTimeoutMillis = 5000 + 2 * config.electionMillis();
        ReadDeadlines readDeadlines = new ReadDeadlines(TimeUnit.MILLISECONDS.toNanos(2L * config.electionMillis()),
                TimeUnit.MILLISECONDS.toNanos(requestTimeoutMillis), clock::nanoTime, metrics.readIndexesFailed::inc);
        this.alarms = new MemberAlarms(sm, proposer, lifecycle, memberId, logs);
        this.snapshots = new SnapshotPolicy(config, metrics, sm.backend, opened.snapshotIndex(), logs);
        LeaderWaits leaderWaits = new LeaderWaits(responders);
        ApplyEvents applyEvents = new ApplyEvents(metrics, alarms, snapshots, lifecycle);
        this.apply = new ApplyLoop(sm, hub, waiters, barrier, memberId, applyEvents, clock, metrics, failpoints, slowApplies,
                logs);
        this.apply.warnApplyAfter(config.options().watchdog().warningApplyDuration());
        this.apply.syncAfter(config.options().backendBatch().limit());
        PeerBridge peers = new PeerBridge(this, logs);
        this.transport = transports.create(peers);
        this.raft = new RaftLoop(opened.node(), opened.storage(), opened.wal(), opened.snapshotter(), PeerSender.over(transport), barrier,
                new RaftEvents(metrics, sm.lessor, leaderWaits, apply, snapshots, lifecycle, memberId, config.electionMillis(),
                        logs),
                config.heartbeatMillis(), config.electionMillis(), clock, responders, failpoints, logs);
        this.reads = new LinearizableReads(barrier, readDeadlines, sm.store, raft, lifecycle);
        this.status = new MemberStatus(config, sm, raft, apply, hub, waiters, memberId);
        this.forwarding = new LeaderForwarding(raft, transport, peers, sm.lessor, sm.membership, status, leaderWaits, clock,
                memberId, requestTimeoutMillis);
        this.jobs = new BackgroundJobs(config, clock, metrics, sm, raft, transport, proposer, waiters, readDeadlines, forwarding,
                lifecycle, status::clusterVersion, memberId, logs);
        this.checks = new ClusterChecks(config, clock, sm, raft, transport, proposer, memberId, requestTimeoutMillis, logs);
        this.confChanges = new ConfChanges(raft, transport, sm.membership, waiters, ids, lifecycle, jobs::execute, memberId,
                requestTimeoutMillis, logs);
        applyEvents.connect(raft, confChanges);
        this.kv = new KvOps(proposer, reads, status, sm.auth, sm.store, jobs::syncBackendAsync, metrics,
                slowApplies, config.options().watchdog().warningApplyDuration(), config.maxTxnOps());
        this.leases = new LeaseOps(proposer, reads, status, forwarding, sm.lessor, ids::nextLeaseId);
        this.cluster = new ClusterOps(sm.membership, confChanges::propose, forwarding::learnerReadyAsync, reads,
                status, config, metrics);
        this.maintenance = new MaintenanceOps(proposer, reads, status, sm.alarms, sm.downgrade, sm.store,
                sm.backend, forwarding::moveLeader, config.dataDir(), metrics, logs);
        this.watches = new WatchOps(hub, progress, status, config.maxRequestBytes());
        this.auth = new AuthOps(proposer, reads, status, sm.auth, config.bcryptCost());
    }

    /**
     * Opens the member's data directory (bootstrapping or restarting it) and builds the server;
     * {@code onFatal} is run if the member must stop (a failed apply, a broken Raft loop, removal).
     */
    public static EtcdServer open(ServerConfig config, MemberContext context, Runnable onFatal, TransportFactory transports)
            throws ConfigException, IOException {
        return open(config, context, onFatal, transports, Clock.SYSTEM, new Random());
    }

    /**
     * As {@link #open(ServerConfig, MemberContext, Runnable, TransportFactory)}, on {@code clock}'s
     * time and with Raft's election timeouts drawn from {@code random}: the in-JVM test cluster
     * passes a manual clock and a seeded random, so a run can be replayed.
     */
    public static EtcdServer open(ServerConfig config, MemberContext context, Runnable onFatal, TransportFactory transports,
                                  Clock clock, Random random) throws ConfigException, IOException {
        AuthOptions auth = config.options().auth();
        TokenProvider tokens;
        try {
            tokens = Tokens.create(auth.tokenType(), auth.tokenOptions(), auth.tokenTtlSeconds(), clock::nanoTime);
        } catch (IllegalArgumentException e) {
            throw new ConfigException("--auth-token: " + e.getMessage());
        }
        Storage.Opened opened = Storage.open(config, clock, random, context.metrics(), context.logs());
        try {
            return new EtcdServer(config, context, opened, onFatal, transports, tokens, clock);
        } catch (IOException | RuntimeException e) {
            opened.wal().close();
            opened.stateMachines().close();
            if (opened.lock() != null) {
                opened.lock().close();
            }
            throw e;
        }
    }

    /**
     * Starts the loops, the lease and backend timers (on the member's clock), the checks that ask
     * the peers, and publishes this member's attributes.
     */
    public void start() {
        jobs.startBackgroundCompaction(failpoints);
        apply.start();
        raft.start();
        jobs.start(logs);
        checks.start(new CorruptionCheck(this, logs), new CompactionHashCheck(this, logs), cluster::promote, logs);
        // Publishing waits for its proposal: off the timer thread, whose sweeps fail proposals that time out.
        MemberAttributes attrs = MemberAttributes.newBuilder().setMemberId(memberId).setName(config.name())
                .addAllClientUrls(config.advertiseClientUrls().stream().map(URI::toString).toList()).build();
        forwarding.execute(() -> lifecycle.publish(proposer, attrs, sm.membership::clusterId, requestTimeoutMillis));
    }

    /**
     * --experimental-initial-corrupt-check: compares this member's data with its peers' before
     * it starts (peers that cannot answer are reported only); throws on a mismatch.
     */
    public void initialCorruptCheck() throws IOException {
        new CorruptionCheck(this, logs).initial(requestTimeoutMillis);
    }

    /**
     * Proposes a request and completes with its applied result (errors as exceptions), waiting at
     * most {@code timeoutNanos} and never longer than the request timeout.
     */
    CompletableFuture<ApplyResult> propose(InternalRaftRequest.Builder r, long timeoutNanos, boolean callerHoldsNoLocks) {
        if (lifecycle.closed()) {
            return CompletableFuture.failedFuture(EtcdError.STOPPED.exception());
        }
        if (limits.applyTooFarBehind(apply.backlog())) {
            return CompletableFuture.failedFuture(EtcdError.TOO_MANY_REQUESTS.exception());
        }
        long id = ids.next();
        InternalRaftRequest request = r.setId(id).setOrigin(memberId).build();
        ByteString data = request.toByteString();
        if (data.size() > config.maxRequestBytes()) {
            return CompletableFuture.failedFuture(EtcdError.REQUEST_TOO_LARGE.exception());
        }
        if (!alarms.admits(request)) {
            return CompletableFuture.failedFuture(EtcdError.NO_SPACE.exception());
        }
        int size = data.size();
        if (!limits.tryAcquire(size)) {
            return CompletableFuture.failedFuture(EtcdError.TOO_MANY_REQUESTS.exception());
        }
        long wait = Math.min(timeoutNanos, TimeUnit.MILLISECONDS.toNanos(requestTimeoutMillis));
        CompletableFuture<ApplyResult> f = waiters.register(id, wait);
        f.whenComplete((res, err) -> limits.release(size));
        // the turn runs on the caller's thread only for a lone proposal: under load a client's event
        // loop that writes the WAL would hold back the other calls it carries, which the Raft loop batches
        raft.propose(data, f, callerHoldsNoLocks && limits.pending() == 1);
        return f.handle((res, err) -> {
            if (err != null) {
                metrics.proposalsFailed.inc(); // timed out or never committed (apply errors are answers)
                throw err instanceof CompletionException ce ? ce : new CompletionException(err);
            }
            if (res.error() != null) {
                throw res.error();
            }
            return res;
        });
    }

    /** Completes when this member has applied everything committed before the call (ReadIndex). */
    public CompletableFuture<Void> linearizableBarrier() {
        return reads.barrier();
    }

    public boolean isPublished() {
        return lifecycle.isPublished();
    }

    /** Completes once this member's attributes are committed: etcd serves clients only from then on. */
    public CompletableFuture<Void> publishedFuture() {
        return lifecycle.published();
    }

    public ServerConfig config() {
        return config;
    }

    public long memberId() {
        return memberId;
    }

    public long clusterId() {
        return status.clusterId();
    }

    /** What the KV service calls. */
    public KvOperations kv() {
        return kv;
    }

    /** What the Lease service calls. */
    public LeaseOperations leases() {
        return leases;
    }

    /** What the Cluster service calls. */
    public ClusterOperations cluster() {
        return cluster;
    }

    /** What the Maintenance service calls. */
    public MaintenanceOperations maintenance() {
        return maintenance;
    }

    /** What the Auth service and the other services' access checks call. */
    public AuthOperations auth() {
        return auth;
    }

    /** What watch streams call. */
    public WatchOperations watches() {
        return watches;
    }

    /** Headers, Status, the /metrics gauges, the cluster version, alarms, the leader and term. */
    public MemberStatus memberStatus() {
        return status;
    }

    public boolean isLeader() {
        return status.isLeader();
    }

    public long appliedIndex() {
        return status.appliedIndex();
    }

    /** The member's own instruments: what its /metrics shows. */
    public Metrics metrics() {
        return metrics;
    }

    /** The peer network, for this package's checks that ask other members. */
    Transporter transport() {
        return transport;
    }

    /** The state machines, for this package's peer bridge and checks. */
    StateMachines stateMachines() {
        return sm;
    }

    RaftLoop raft() {
        return raft;
    }

    /** Etcd's periodic checks found {@code member} corrupt. */
    void raiseCorruptAlarm(long member) {
        alarms.raiseCorrupt(member);
    }

    /** The peer bridge received a snapshot's backend file. */
    void snapshotArrived(long index, Path dbFile) {
        snapshots.arrived(index, dbFile);
    }

    /** Whether this member stopped because it was removed from the cluster: its process exits 0, as etcd's. */
    public boolean isRemoved() {
        return confChanges.isRemoved();
    }

    /** Another member refused us as removed. */
    void removedFromCluster() {
        confChanges.removedFromCluster();
    }

    /** A peer asks this member (as leader) for a lease's time to live. */
    LeaseTimeToLiveResponse localTimeToLive(LeaseTimeToLiveRequest r) {
        return forwarding.localTimeToLive(r);
    }

    /** HashKV for a peer's corruption checks. */
    HashKVResponse peerHashKv(long revision) {
        return maintenance.peerHashKv(revision);
    }

    /** Stops serving: loops first, then storage. Idempotent. */
    @Override
    public void close() {
        if (!lifecycle.close()) {
            return;
        }
        jobs.close();
        checks.close();
        forwarding.close();
        transport.close();
        raft.close();
        apply.close();
        // After the loops: they hand completions to the responders until they stop.
        responders.shutdown();
        hub.close();
        progress.close();
        waiters.failAll(EtcdError.STOPPED.exception());
        reads.close();
        sm.close();
        if (dataDirLock != null) {
            dataDirLock.close();
        }
    }
}
