package io.etcdj.server.etcdserver;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.AlarmMember;
import io.etcdj.api.etcdserverpb.LeaseTimeToLiveRequest;
import io.etcdj.api.etcdserverpb.LeaseTimeToLiveResponse;
import io.etcdj.api.etcdserverpb.Member;
import io.etcdj.api.etcdserverpb.ResponseHeader;
import io.etcdj.api.etcdserverpb.StatusResponse;
import io.etcdj.raftpb.ConfChange;
import io.etcdj.raftpb.ConfChangeType;
import io.etcdj.raftpb.Entry;
import io.etcdj.raftpb.Snapshot;
import io.etcdj.server.api.AuthOperations;
import io.etcdj.server.api.Callers;
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
import io.etcdj.server.config.ConfigException;
import io.etcdj.server.config.ServerConfig;
import io.etcdj.server.error.EtcdError;
import io.etcdj.server.log.Log;
import io.etcdj.server.log.LogSink;
import io.etcdj.server.membership.MemberIds;
import io.etcdj.server.metrics.Metrics;
import io.etcdj.server.mvcc.ReadView;
import io.etcdj.server.mvcc.WriteBatch;
import io.etcdj.server.read.ReadBarrier;
import io.etcdj.server.read.ReadDeadlines;
import io.etcdj.server.slowlog.SlowApplies;
import io.etcdj.server.transport.PeerHandler;
import io.etcdj.server.transport.Transporter;
import io.etcdj.server.version.Versions;
import io.etcdj.server.wait.ProposalBudget;
import io.etcdj.server.wait.Waiters;
import io.etcdj.server.watch.ProgressNotifier;
import io.etcdj.server.watch.WatchHub;
import io.etcdj.serverpb.InternalRaftRequest;
import io.etcdj.serverpb.MemberAttributes;
import io.netty.util.internal.ThreadExecutorMap;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * A running member's core (etcd's server.go): its lifecycle, proposing a request and waiting for
 * it to be applied, and the read barrier. Every write goes through Raft, a single member too.
 * What surrounds the core has a class of its own: {@link MemberStatus} (headers, Status, gauges),
 * {@link LeaderForwarding}, {@link SnapshotPolicy}, {@link ConfChanges}, {@link MemberAlarms},
 * {@link BackgroundJobs} and {@link ClusterChecks}; the API layer's operations are the adapters
 * {@link KvOps} ... {@link AuthOps}.
 */
public final class EtcdServer implements AutoCloseable {
    /**
     * etcd's maxGapBetweenApplyAndCommitIndex: while more committed entries than this wait for
     * the apply loop, new proposals are refused with "too many requests".
     */
    static final long MAX_GAP_BETWEEN_APPLY_AND_COMMIT = 5000;
    /**
     * Proposals made here and not yet answered, at most: twice etcd's gap, so on one member the
     * gap check (etcd's) is what a pipelining client meets first.
     */
    static final long MAX_PENDING_PROPOSALS = 2 * MAX_GAP_BETWEEN_APPLY_AND_COMMIT;

    /** Sends responses of applied requests, off the apply loop. */
    private final ExecutorService responders = Executors.newFixedThreadPool(2, r -> {
        Thread t = new Thread(r, "respond");
        t.setDaemon(true);
        return t;
    });
    /** Bounds what unanswered proposals hold (see {@link #pendingProposalBytes}). */
    private final ProposalBudget proposalBudget = new ProposalBudget(MAX_PENDING_PROPOSALS, pendingProposalBytes());
    /** Where a read waits when its view of the store cannot be opened at once (see {@link #read}). */
    private final BlockingReads blockingReads = new BlockingReads();
    /** The member's logger (its sink, see MemberContext). */
    private final Log log;
    private final ServerConfig config;
    private final StateMachines sm;
    private final WatchHub hub;
    /** The member's sense of time: ticks, lease expiry, deadlines and the timer tasks (see docs/server.md). */
    private final Clock clock;
    private final Waiters waiters;
    private final ReadBarrier reads;
    /**
     * Without a leader a read cannot be confirmed: it fails after two election timeouts (as
     * proposals do) rather than at the end of the request timeout.
     */
    private final ReadDeadlines readDeadlines;
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
    private final SlowApplies slowApplies;
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
    private final MaintenanceOperations maintenance;
    private final WatchOperations watches;
    private final AuthOperations auth;

    /** Builds the member's peer network around the handler that receives its traffic. */
    @FunctionalInterface
    public interface TransportFactory {
        Transporter create(PeerHandler handler) throws IOException;
    }

    EtcdServer(ServerConfig config, MemberContext context, Storage.Opened opened, Runnable onFatal, TransportFactory transports,
               TokenProvider tokens, Clock clock) throws IOException {
        this.config = config;
        this.clock = clock;
        this.metrics = context.metrics();
        this.logs = context.logs();
        this.log = logs.logger("etcdserver/server");
        this.failpoints = context.failpoints();
        this.slowApplies = new SlowApplies(metrics, logs);
        this.reads = new ReadBarrier(responders, ThreadExecutorMap::currentExecutor, metrics.slowReadIndexes::inc);
        // a call made on a connection's event loop is answered there (see Waiters)
        this.waiters = new Waiters(responders, clock::nanoTime, ThreadExecutorMap::currentExecutor);
        this.sm = opened.stateMachines();
        sm.auth.setTokenProvider(tokens);
        this.memberId = opened.memberId();
        this.lifecycle = new Lifecycle(onFatal);
        this.dataDirLock = opened.lock();
        this.hub = new WatchHub(sm.store);
        this.progress = new ProgressNotifier(Math.max(1, config.watchProgressNotifyInterval().toMillis()));
        this.ids = new IdGenerator(memberId, System.currentTimeMillis());
        this.requestTimeoutMillis = 5000 + 2 * config.electionMillis();
        this.readDeadlines = new ReadDeadlines(TimeUnit.MILLISECONDS.toNanos(2L * config.electionMillis()),
                TimeUnit.MILLISECONDS.toNanos(requestTimeoutMillis), clock::nanoTime, metrics.readIndexesFailed::inc);
        this.alarms = new MemberAlarms(sm, this::propose, lifecycle, memberId, logs);
        this.apply = new ApplyLoop(sm, hub, waiters, reads, memberId, new ApplyHooks(), clock, metrics, failpoints,
                slowApplies, logs);
        this.apply.warnApplyAfter(config.options().watchdog().warningApplyDuration());
        this.apply.syncAfter(config.options().backendBatch().limit());
        PeerBridge peers = new PeerBridge(this, logs);
        this.transport = transports.create(peers);
        this.raft = new RaftLoop(opened.node(), opened.storage(), opened.wal(), opened.snapshotter(), transport::send, reads,
                new RaftListener(), config.heartbeatMillis(), config.electionMillis(), clock, responders, failpoints, logs);
        this.status = new MemberStatus(config, sm, raft, apply, hub, waiters, memberId);
        this.snapshots = new SnapshotPolicy(config, metrics, sm.backend, raft, apply, opened.snapshotIndex(), logs);
        this.forwarding = new LeaderForwarding(raft, transport, peers, sm.lessor, sm.membership, status, responders, clock,
                memberId, requestTimeoutMillis);
        this.jobs = new BackgroundJobs(config, clock, metrics, sm, raft, transport, this::propose, waiters, readDeadlines,
                forwarding, lifecycle, status::clusterVersion, memberId, logs);
        this.checks = new ClusterChecks(config, clock, sm, raft, transport, this::propose, memberId, requestTimeoutMillis, logs);
        this.confChanges = new ConfChanges(raft, transport, sm.membership, waiters, ids, lifecycle, jobs::execute, memberId,
                requestTimeoutMillis, logs);
        this.kv = new KvOps(this, metrics, slowApplies);
        this.leases = new LeaseOps(this);
        this.cluster = new ClusterOps(this, metrics);
        this.maintenance = new MaintenanceOps(this, metrics);
        this.watches = new WatchOps(this);
        this.auth = new AuthOps(this);
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
        TokenProvider tokens = Tokens.create(config.options().auth(), clock::nanoTime);
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
        sm.store.afterCompactionBatch(() -> failpoints.hit("compactAfterCommitBatch"));
        sm.backend.beforeDefragCopy(() -> failpoints.hit("defragBeforeCopy"));
        sm.store.startBackgroundCompaction(config.options().storeTuning().compactionBatchLimit(),
                config.options().storeTuning().compactionSleepInterval().toNanos());
        apply.start();
        raft.start();
        jobs.start(logs);
        checks.start(new CorruptionCheck(this, logs), new CompactionHashCheck(this, logs), cluster::promote, logs);
        // Publishing waits for its proposal: off the timer thread, whose sweeps fail proposals that time out.
        forwarding.execute(this::publish);
    }

    private void publish() {
        MemberAttributes attrs = MemberAttributes.newBuilder().setMemberId(memberId).setName(config.name())
                .addAllClientUrls(config.advertiseClientUrls().stream().map(URI::toString).toList()).build();
        while (!lifecycle.closed() && !lifecycle.isPublished()) {
            try {
                propose(InternalRaftRequest.newBuilder().setPublish(attrs)).get(requestTimeoutMillis, TimeUnit.MILLISECONDS);
                lifecycle.markPublished();
                log.info("published local member to cluster through raft",
                        "local-member-id", MemberIds.hex(memberId),
                        "local-member-attributes", "{Name:" + config.name() + " ClientURLs:" + attrs.getClientUrlsList() + "}",
                        "cluster-id", MemberIds.hex(sm.membership.clusterId()));
                log.info("enabled capabilities for version", "cluster-version", Versions.CLUSTER.substring(0, 3));
            } catch (Exception e) {
                if (!lifecycle.closed()) {
                    log.warn("failed to publish local member to cluster through raft",
                            "error", e.getCause() != null ? e.getCause().getMessage() : String.valueOf(e));
                }
            }
        }
    }

    /**
     * --experimental-initial-corrupt-check: compares this member's data with its peers' before
     * it starts (peers that cannot answer are reported only); throws on a mismatch.
     */
    public void initialCorruptCheck() throws IOException {
        new CorruptionCheck(this, logs).initial(requestTimeoutMillis);
    }

    /**
     * The bytes unanswered proposals may hold: an eighth of the heap (at least 64 MiB). Each is
     * held about twice until applied (the request, its encoded entry), and the Raft log keeps
     * applied entries until the next snapshot, so this leaves the heap room for both.
     */
    static long pendingProposalBytes() {
        return Math.max(64L << 20, Runtime.getRuntime().maxMemory() / 8);
    }

    /** Proposes a request and completes with its applied result (errors as exceptions). */
    CompletableFuture<ApplyResult> propose(InternalRaftRequest.Builder r) {
        if (lifecycle.closed()) {
            return CompletableFuture.failedFuture(EtcdError.STOPPED.exception());
        }
        // etcd's first check, before the request is even encoded: the apply loop is too far behind.
        if (apply.backlog() > MAX_GAP_BETWEEN_APPLY_AND_COMMIT) {
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
        if (!proposalBudget.tryAcquire(size)) {
            return CompletableFuture.failedFuture(EtcdError.TOO_MANY_REQUESTS.exception());
        }
        CompletableFuture<ApplyResult> f = waiters.register(id, TimeUnit.MILLISECONDS.toNanos(requestTimeoutMillis));
        f.whenComplete((res, err) -> proposalBudget.release(size));
        raft.propose(data, f);
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

    /**
     * Proposes a client's request as the caller of the current gRPC call (its user and auth
     * revision in the header, for the auth stage of the applier chain).
     */
    CompletableFuture<ApplyResult> proposeAsCaller(InternalRaftRequest.Builder r) {
        try {
            r.setHeader(Callers.header());
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        return propose(r);
    }

    /**
     * Runs {@code read} on a view of the store at the current revision without ever waiting on
     * the calling thread: when the view cannot be opened at once (a write batch, a defragment),
     * the read is handed to the blocking-read threads and answered from there. Either way it sees
     * every write applied before the call.
     */
    <T> CompletableFuture<T> read(Function<ReadView, T> read) {
        ReadView now = sm.store.tryOpenRead();
        if (now != null) {
            try (now) {
                return CompletableFuture.completedFuture(read.apply(now));
            } catch (RuntimeException e) {
                return CompletableFuture.failedFuture(e);
            }
        }
        return blockingReads.submit(() -> {
            try (ReadView v = sm.store.openRead()) {
                return read.apply(v);
            }
        });
    }

    /** Completes when this member has applied everything committed before the call (ReadIndex). */
    public CompletableFuture<Void> linearizableBarrier() {
        if (lifecycle.closed()) {
            return CompletableFuture.failedFuture(EtcdError.STOPPED.exception());
        }
        CompletableFuture<Void> f = readDeadlines.track(reads.enqueue());
        raft.wake();
        return f;
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

    /** The raised alarms, as /health reports them. */
    public List<AlarmMember> alarmList() {
        return sm.alarms.list();
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

    public long leader() {
        return status.leader();
    }

    public boolean isLeader() {
        return status.isLeader();
    }

    public long term() {
        return status.term();
    }

    public long committedIndex() {
        return status.committedIndex();
    }

    public long appliedIndex() {
        return status.appliedIndex();
    }

    /** Whether this member is a learner (as the membership it has applied says). */
    public boolean isLearner() {
        return status.isLearner();
    }

    public ResponseHeader header() {
        return status.header();
    }

    public StatusResponse status() {
        return status.status();
    }

    /** The cluster version (a downgrade job's target while one runs). */
    public String clusterVersion() {
        return status.clusterVersion();
    }

    /** The member's own instruments: what its /metrics shows. */
    public Metrics metrics() {
        return metrics;
    }

    /** The member's gauges for a /metrics scrape. */
    public Metrics.Gauges metricsGauges() {
        return status.metricsGauges();
    }

    /** Hands leadership to {@code target}; completes when it leads. */
    public CompletableFuture<Void> moveLeader(long target) {
        return forwarding.moveLeader(target);
    }

    /** Proposes a membership change and completes when it is applied here. */
    public CompletableFuture<ApplyResult> proposeConfChange(ConfChangeType type, long nodeId, Member context) {
        return confChanges.propose(type, nodeId, context);
    }

    public void defragment() {
        log.info("starting defragment", "current-db-size-bytes", sm.backend.size());
        long started = System.nanoTime();
        metrics.defragInflight.set(1);
        try {
            sm.backend.defragment();
        } finally {
            metrics.defragInflight.set(0);
        }
        metrics.backendDefrag.observeNanos(System.nanoTime() - started);
        log.info("finished defragment", "current-db-size-bytes", sm.backend.size());
    }

    public long nextLeaseId() {
        long id;
        do {
            id = ids.next() & Long.MAX_VALUE;
        } while (id == 0);
        return id;
    }

    ResponseHeader header(long revision) {
        return status.header(revision);
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

    WatchHub watchHub() {
        return hub;
    }

    ProgressNotifier progressNotifier() {
        return progress;
    }

    void raiseCorruptAlarm(long member) {
        alarms.raiseCorrupt(member);
    }

    void snapshotArrived(long index, Path dbFile) {
        snapshots.arrived(index, dbFile);
    }

    void removedFromCluster() {
        confChanges.removedFromCluster();
    }

    CompletableFuture<Long> renewLease(long id) {
        return forwarding.renewLease(id);
    }

    CompletableFuture<LeaseTimeToLiveResponse> timeToLive(LeaseTimeToLiveRequest r) {
        return forwarding.timeToLive(r);
    }

    LeaseTimeToLiveResponse localTimeToLive(LeaseTimeToLiveRequest r) {
        return forwarding.localTimeToLive(r);
    }

    CompletableFuture<Boolean> learnerReadyAsync(long learnerId) {
        return forwarding.learnerReadyAsync(learnerId);
    }

    CompletableFuture<Void> syncBackendAsync() {
        return jobs.syncBackendAsync();
    }

    /** What the Raft loop reports, handed to the classes it concerns (on the raft thread). */
    private final class RaftListener implements RaftLoop.Listener {
        private long lastLead;

        @Override
        public void leaderChanged(long lead, long term, boolean isLeader) {
            if (lead != lastLead) {
                log.info(lead == 0 ? "raft.node lost leader" : "raft.node elected leader",
                        "local-member-id", MemberIds.hex(memberId), "leader", MemberIds.hex(lead), "term", term);
                lastLead = lead;
                metrics.leaderChanges.inc();
            }
            forwarding.leaderIs(lead);
            metrics.hasLeader.set(lead != 0 ? 1 : 0);
            metrics.isLeader.set(isLeader ? 1 : 0);
            if (isLeader && !sm.lessor.isPrimary()) {
                sm.lessor.promote(TimeUnit.MILLISECONDS.toNanos(config.electionMillis()));
            } else if (!isLeader && sm.lessor.isPrimary()) {
                sm.lessor.demote();
            }
        }

        @Override
        public void committed(List<Entry> entries, long term) {
            apply.submit(entries, term);
        }

        @Override
        public void snapshotInstalled(Snapshot snapshot) {
            snapshots.installed(snapshot);
        }

        @Override
        public void fatal(Throwable t) {
            if (lifecycle.stoppingOrClosed()) {
                return;
            }
            log.fatal("raft loop failed; stopping the member", t);
            lifecycle.stopForFailure();
        }
    }

    /** What the apply loop reports, handed to the classes it concerns (on the apply thread). */
    private final class ApplyHooks implements ApplyLoop.Hooks {
        @Override
        public void confChange(ConfChange cc, WriteBatch batch, boolean fresh) {
            confChanges.apply(cc, batch, fresh);
        }

        @Override
        public void applied(long index, boolean confChange) {
            raft.appliedTo(index, confChange);
            metrics.appliedIndex.set(index);
            snapshots.applied(index);
        }

        @Override
        public void fatal(Throwable t) {
            lifecycle.stopForFailure();
        }

        @Override
        public void quotaExceeded() {
            alarms.raiseNoSpace();
        }
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
        blockingReads.close();
        hub.close();
        progress.close();
        waiters.failAll(EtcdError.STOPPED.exception());
        reads.failAll(EtcdError.STOPPED.exception());
        sm.close();
        if (dataDirLock != null) {
            dataDirLock.close();
        }
    }
}
