package io.etcdj.server.etcdserver;

import io.etcdj.api.etcdserverpb.AlarmType;
import io.etcdj.api.etcdserverpb.LeaseRevokeRequest;
import io.etcdj.api.etcdserverpb.LeaseTimeToLiveRequest;
import io.etcdj.api.etcdserverpb.LeaseTimeToLiveResponse;
import io.etcdj.api.etcdserverpb.Member;
import io.etcdj.api.etcdserverpb.ResponseHeader;
import io.etcdj.api.etcdserverpb.StatusResponse;
import io.etcdj.peerpb.LeaseRenewResponse;
import io.etcdj.raftpb.ConfChange;
import io.etcdj.raftpb.ConfChangeType;
import io.etcdj.raftpb.Entry;
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
import io.etcdj.server.compactor.Compactor;
import io.etcdj.server.config.ConfigException;
import io.etcdj.server.config.ServerConfig;
import io.etcdj.server.error.EtcdError;
import io.etcdj.server.lease.Lease;
import io.etcdj.server.log.Log;
import io.etcdj.server.membership.MemberIds;
import io.etcdj.server.metrics.Metrics;
import io.etcdj.server.mvcc.WriteBatch;
import io.etcdj.server.read.ReadBarrier;
import io.etcdj.server.read.ReadDeadlines;
import io.etcdj.server.transport.PeerHandler;
import io.etcdj.server.transport.Transporter;
import io.etcdj.server.version.Versions;
import io.etcdj.server.wait.Waiters;
import io.etcdj.server.watch.ProgressNotifier;
import io.etcdj.server.watch.WatchHub;
import io.etcdj.serverpb.InternalRaftRequest;
import io.etcdj.serverpb.MemberAttributes;
import io.netty.util.internal.ThreadExecutorMap;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A running member: the Raft loop, the apply loop and the state machines, and the operations the
 * API layer needs (propose and wait, linearizable reads, headers, status). Every write goes
 * through Raft, a single member too.
 */
public final class EtcdServer implements AutoCloseable {
    /** The member's logger (its sink, see MemberContext). */
    private final Log log;
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

    private final ServerConfig config;
    private final StateMachines sm;
    private final WatchHub hub;
    /** Sends responses of applied requests, off the apply loop. */
    private final ExecutorService responders = Executors.newFixedThreadPool(2, r -> {
        Thread t = new Thread(r, "respond");
        t.setDaemon(true);
        return t;
    });
    /** The member's sense of time: ticks, lease expiry, deadlines and the timer tasks (see docs/server.md). */
    private final Clock clock;
    private final Waiters waiters;
    /** Bounds what unanswered proposals hold (see {@link #pendingProposalBytes}). */
    private final io.etcdj.server.wait.ProposalBudget proposalBudget =
            new io.etcdj.server.wait.ProposalBudget(MAX_PENDING_PROPOSALS, pendingProposalBytes());
    private final ReadBarrier reads;
    /** Where a read waits when its view of the store cannot be opened at once (see {@link #read}). */
    private final BlockingReads blockingReads = new BlockingReads();
    /** Leader transfers waiting for their transferee to lead. */
    private final LeaderWaits leaderWaits = new LeaderWaits(responders);
    /**
     * Without a leader a read cannot be confirmed: it fails after two election timeouts (as
     * proposals do) rather than at the end of the request timeout.
     */
    private final ReadDeadlines readDeadlines;
    private final ProgressNotifier progress;
    private final IdGenerator ids;
    private final long memberId;
    private final RaftLoop raft;
    private final Transporter transport;
    private final Map<Long, Path> incomingSnapshots = new ConcurrentHashMap<>();
    private final ApplyLoop apply;
    private final ScheduledExecutorService timers;
    /** Runs calls forwarded to the leader, so gRPC threads never block on another member. */
    private final ExecutorService forwarders = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "forward-to-leader");
        t.setDaemon(true);
        return t;
    });
    private final long requestTimeoutMillis;
    private final Runnable onFatal;
    /** Set by the first failure that stops the member ({@link #stopForFailure}). */
    private final java.util.concurrent.atomic.AtomicBoolean stopping = new java.util.concurrent.atomic.AtomicBoolean();
    private final DataDirLock dataDirLock;
    private volatile long lastSnapshotIndex;
    private volatile boolean published;
    private final CompletableFuture<Void> publishedFuture = new CompletableFuture<>();
    private volatile boolean removed;
    private volatile boolean closed;
    /** The member's own instruments and failpoints (nothing of them is process-wide). */
    private final Metrics metrics;
    private final Failpoints failpoints;
    private final io.etcdj.server.log.LogSink logs;
    private final io.etcdj.server.slowlog.SlowApplies slowApplies;
    private final KvOperations kv;
    private final LeaseOperations leases = new LeaseOps(this);
    private final ClusterOperations cluster;
    private final MaintenanceOperations maintenance;
    private final WatchOperations watches = new WatchOps(this);
    private final AuthOperations auth = new AuthOps(this);

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
        this.slowApplies = new io.etcdj.server.slowlog.SlowApplies(metrics, logs);
        this.reads = new ReadBarrier(responders, ThreadExecutorMap::currentExecutor, metrics.slowReadIndexes::inc);
        this.kv = new KvOps(this, metrics, slowApplies);
        this.cluster = new ClusterOps(this, metrics);
        this.maintenance = new MaintenanceOps(this, metrics);
        // a call made on a connection's event loop is answered there (see Waiters)
        this.waiters = new Waiters(responders, clock::nanoTime, ThreadExecutorMap::currentExecutor);
        this.sm = opened.stateMachines();
        sm.auth.setTokenProvider(tokens);
        this.memberId = opened.memberId();
        this.onFatal = onFatal;
        this.dataDirLock = opened.lock();
        this.hub = new WatchHub(sm.store);
        this.progress = new ProgressNotifier(Math.max(1, config.watchProgressNotifyInterval().toMillis()));
        this.ids = new IdGenerator(memberId, System.currentTimeMillis());
        this.requestTimeoutMillis = 5000 + 2 * config.electionMillis();
        this.readDeadlines = new ReadDeadlines(TimeUnit.MILLISECONDS.toNanos(2L * config.electionMillis()),
                TimeUnit.MILLISECONDS.toNanos(requestTimeoutMillis), clock::nanoTime, metrics.readIndexesFailed::inc);
        this.lastSnapshotIndex = opened.snapshotIndex();
        this.apply = new ApplyLoop(sm, hub, waiters, reads, memberId, new ApplyHooks(), clock, metrics, failpoints,
                slowApplies, logs);
        this.apply.warnApplyAfter(config.options().watchdog().warningApplyDuration());
        this.apply.syncAfter(config.options().backendBatch().limit());
        this.transport = transports.create(new PeerBridge(this, logs));
        this.raft = new RaftLoop(opened.node(), opened.storage(), opened.wal(), opened.snapshotter(), transport::send, reads,
                new RaftListener(), config.heartbeatMillis(), config.electionMillis(), clock, responders, failpoints, logs);
        this.timers = Executors.newScheduledThreadPool(1, r -> {
            Thread t = new Thread(r, "server-timers");
            t.setDaemon(true);
            return t;
        });
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
     * As {@link #open(ServerConfig, Runnable, TransportFactory)}, on {@code clock}'s time and with
     * Raft's election timeouts drawn from {@code random}: the in-JVM test cluster passes a manual
     * clock and a seeded random, so a run can be replayed.
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
     * Starts the loops, the lease and backend timers (on the member's clock), and publishes this
     * member's attributes.
     */
    public void start() {
        configureLeaseCheckpoints();
        sm.store.afterCompactionBatch(() -> failpoints.hit("compactAfterCommitBatch"));
        sm.backend.beforeDefragCopy(() -> failpoints.hit("defragBeforeCopy"));
        sm.store.startBackgroundCompaction(config.options().storeTuning().compactionBatchLimit(),
                config.options().storeTuning().compactionSleepInterval().toNanos());
        apply.start();
        raft.start();
        clock.scheduleWithFixedDelay(timers, survivingFailures("lease expiry", this::revokeExpiredLeases), 500, 500,
                TimeUnit.MILLISECONDS);
        long syncEvery = config.options().backendBatch().interval().toMillis();
        clock.scheduleWithFixedDelay(timers, this::syncBackend, syncEvery, Math.max(1, syncEvery), TimeUnit.MILLISECONDS);
        clock.scheduleWithFixedDelay(timers, survivingFailures("request deadlines", () -> {
            waiters.expire();
            readDeadlines.sweep(raft.lead() != 0);
            leaderWaits.expire(clock.nanoTime());
        }), 100, 100, TimeUnit.MILLISECONDS);
        startCorruptionChecks();
        startCompactionHashChecks();
        var tuning = config.options().tuning();
        ElectionTickAdvance.start(log, tuning.initialElectionTickAdvance(), sm.membership.members().size(), memberId,
                config.electionTicks(), config.heartbeatMillis(), clock, timers, transport::activePeers, raft::advanceTicks);
        startDowngradeMonitor(tuning.downgradeCheckTime());
        if (tuning.autoPromoteLearners()) {
            startLearnerPromoter();
        }
        new Compactor(new Compactor.Target() {
            @Override
            public long currentRevision() {
                return sm.store.currentRevision();
            }

            @Override
            public long compactRevision() {
                return sm.store.compactRevision();
            }

            @Override
            public boolean isLeader() {
                return raft.isLeader();
            }

            @Override
            public CompletableFuture<?> compact(long revision) {
                return propose(InternalRaftRequest.newBuilder().setCompaction(
                        io.etcdj.api.etcdserverpb.CompactionRequest.newBuilder().setRevision(revision)));
            }
        }, config, clock, logs).schedule(clock, timers);
        // Publishing waits for its proposal: off the timer thread, whose sweeps fail proposals that time out.
        forwarders.execute(this::publish);
    }

    /**
     * Lease checkpoints (gate LeaseCheckpoint): the lessor proposes them through Raft, and applied
     * ones are persisted with the gate LeaseCheckpointPersist or in a 3.6 cluster, as etcd does.
     */
    private void configureLeaseCheckpoints() {
        io.etcdj.server.config.StoreTuning t = config.options().storeTuning();
        io.etcdj.server.lease.Lessor.Checkpointer cp = !t.leaseCheckpoint() ? null : req ->
                propose(InternalRaftRequest.newBuilder().setLeaseCheckpoint(req)).whenComplete((r, e) -> {
                    if (e != null && !closed) {
                        log.warn("failed to checkpoint leases", "error", String.valueOf(e.getMessage()));
                    }
                });
        sm.lessor.configureCheckpoints(cp, t.leaseCheckpointInterval().toNanos(),
                () -> t.leaseCheckpointPersist() || Versions.atLeast(clusterVersion(), 3, 6));
    }

    private void publish() {
        MemberAttributes attrs = MemberAttributes.newBuilder().setMemberId(memberId).setName(config.name())
                .addAllClientUrls(config.advertiseClientUrls().stream().map(URI::toString).toList()).build();
        while (!closed && !published) {
            try {
                propose(InternalRaftRequest.newBuilder().setPublish(attrs)).get(requestTimeoutMillis, TimeUnit.MILLISECONDS);
                published = true;
                publishedFuture.complete(null);
                log.info("published local member to cluster through raft",
                        "local-member-id", MemberIds.hex(memberId),
                        "local-member-attributes", "{Name:" + config.name() + " ClientURLs:" + attrs.getClientUrlsList() + "}",
                        "cluster-id", MemberIds.hex(sm.membership.clusterId()));
                log.info("enabled capabilities for version", "cluster-version", Versions.CLUSTER.substring(0, 3));
            } catch (Exception e) {
                if (!closed) {
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

    /** Proposes the CORRUPT alarm for {@code member} (etcd's TriggerCorruptAlarm). */
    void raiseCorruptAlarm(long member) {
        log.warn("raising CORRUPT alarm", "member-id", Long.toHexString(member));
        propose(InternalRaftRequest.newBuilder().setAlarm(io.etcdj.api.etcdserverpb.AlarmRequest.newBuilder()
                .setMemberID(member).setAction(io.etcdj.api.etcdserverpb.AlarmRequest.AlarmAction.ACTIVATE)
                .setAlarm(AlarmType.CORRUPT)));
    }

    /** etcd 3.6's downgrade monitor, every --downgrade-check-time (0: none), on the check thread. */
    private void startDowngradeMonitor(java.time.Duration every) {
        if (every.isZero() || every.isNegative()) {
            return;
        }
        DowngradeMonitor monitor = new DowngradeMonitor(new DowngradeMonitor.Cluster() {
            @Override
            public boolean isLeader() {
                return raft.isLeader();
            }

            @Override
            public String downgradeTarget() {
                var d = sm.downgrade.info();
                return d.enabled() ? d.targetVersion() : null;
            }

            @Override
            public java.util.List<Long> members() {
                return sm.membership.members().stream().map(io.etcdj.api.etcdserverpb.Member::getID).toList();
            }

            @Override
            public String serverVersion(long member) {
                return member == memberId ? Versions.SERVER : transport.serverVersionOf(member, requestTimeoutMillis);
            }

            @Override
            public void cancelDowngrade() {
                propose(InternalRaftRequest.newBuilder().setDowngradeInfoSet(
                        io.etcdj.serverpb.DowngradeInfoSet.newBuilder().setEnabled(false)));
            }
        }, logs);
        corruptChecks.scheduleWithFixedDelay(() -> {
            try {
                monitor.check();
            } catch (RuntimeException e) {
                log.warn("failed to cancel downgrade", "error", String.valueOf(e.getMessage()));
            }
        }, every.toNanos(), every.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** --auto-promote-learners: once a second the leader promotes a learner that has caught up, on the check thread. */
    private void startLearnerPromoter() {
        LearnerPromoter promoter = new LearnerPromoter(new LearnerPromoter.Cluster() {
            @Override
            public LearnerPromoter.Progress progress() {
                if (!raft.isLeader()) {
                    return null;
                }
                io.etcdj.raft.Status st = raft.call(n -> n.status()).join();
                java.util.Map<Long, Long> learners = new java.util.LinkedHashMap<>();
                for (io.etcdj.api.etcdserverpb.Member m : sm.membership.members()) {
                    if (m.getIsLearner()) {
                        io.etcdj.raft.Status.PeerProgress p = st.progress().get(m.getID());
                        learners.put(m.getID(), p == null ? 0L : p.match());
                    }
                }
                return new LearnerPromoter.Progress(st.commit(), learners);
            }

            @Override
            public CompletableFuture<?> promote(long learner) {
                return cluster.promote(learner);
            }
        }, logs);
        corruptChecks.scheduleWithFixedDelay(() -> {
            try {
                promoter.check();
            } catch (RuntimeException e) {
                log.warn("failed to check learners for promotion", "error", String.valueOf(e.getMessage()));
            }
        }, 1, 1, TimeUnit.SECONDS);
    }

    /** Runs the periodic corruption check (--corrupt-check-time) on a thread of its own. */
    private void startCorruptionChecks() {
        java.time.Duration every = config.options().corruptCheckTime();
        if (every.isZero() || every.isNegative()) {
            return;
        }
        log.info("enabled corruption checking", "local-member-id", MemberIds.hex(memberId), "interval", every.toString());
        CorruptionCheck check = new CorruptionCheck(this, logs);
        clock.scheduleWithFixedDelay(corruptChecks, () -> {
            try {
                check.periodic(requestTimeoutMillis);
            } catch (Exception e) {
                log.warn("failed to check hash KV", "error", String.valueOf(e.getMessage()));
            }
        }, every.toMillis(), every.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Runs the leader's compaction hash check (feature gate CompactHashCheck) every --compact-hash-check-time. */
    private void startCompactionHashChecks() {
        io.etcdj.server.config.WatchdogOptions w = config.options().watchdog();
        if (!w.compactHashCheck()) {
            return;
        }
        log.info("enabled compaction hash check", "local-member-id", MemberIds.hex(memberId),
                "interval", w.compactHashCheckTime().toString());
        CompactionHashCheck check = new CompactionHashCheck(this, logs);
        long every = w.compactHashCheckTime().toMillis();
        clock.scheduleWithFixedDelay(corruptChecks, () -> {
            try {
                check.run(requestTimeoutMillis);
            } catch (RuntimeException e) {
                log.warn("failed to check compaction hashes", "error", String.valueOf(e.getMessage()));
            }
        }, every, every, TimeUnit.MILLISECONDS);
    }

    private final java.util.concurrent.ScheduledExecutorService corruptChecks =
            java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "corrupt-check");
                t.setDaemon(true);
                return t;
            });

    public boolean isPublished() {
        return published;
    }

    /** Completes once this member's attributes are committed: etcd serves clients only from then on. */
    public CompletableFuture<Void> publishedFuture() {
        return publishedFuture;
    }

    public ServerConfig config() {
        return config;
    }

    public long memberId() {
        return memberId;
    }

    public long clusterId() {
        return sm.membership.clusterId();
    }

    /** The peer network, for this package's checks that ask other members. */
    Transporter transport() {
        return transport;
    }

    /** The state machines, for this package's operations classes. */
    StateMachines stateMachines() {
        return sm;
    }

    /** The raised alarms, as /health reports them. */
    public List<io.etcdj.api.etcdserverpb.AlarmMember> alarmList() {
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

    /** What watch streams call. */
    public AuthOperations auth() {
        return auth;
    }

    public WatchOperations watches() {
        return watches;
    }

    WatchHub watchHub() {
        return hub;
    }

    ProgressNotifier progressNotifier() {
        return progress;
    }

    public long leader() {
        return raft.lead();
    }

    public boolean isLeader() {
        return raft.isLeader();
    }

    public long term() {
        return raft.term();
    }

    public long committedIndex() {
        return raft.commitIndex();
    }

    public long appliedIndex() {
        return apply.appliedIndex();
    }

    public long nextLeaseId() {
        long id;
        do {
            id = ids.next() & Long.MAX_VALUE;
        } while (id == 0);
        return id;
    }

    public ResponseHeader header() {
        return header(sm.store.currentRevision());
    }

    public ResponseHeader header(long revision) {
        return ResponseHeader.newBuilder().setClusterId(clusterId()).setMemberId(memberId)
                .setRevision(revision).setRaftTerm(raft.term()).build();
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
     * The bytes unanswered proposals may hold: an eighth of the heap (at least 64 MiB). Each is
     * held about twice until applied (the request, its encoded entry), and the Raft log keeps
     * applied entries until the next snapshot, so this leaves the heap room for both.
     */
    static long pendingProposalBytes() {
        return Math.max(64L << 20, Runtime.getRuntime().maxMemory() / 8);
    }

    /** Proposes a request and completes with its applied result (errors as exceptions). */
    CompletableFuture<ApplyResult> propose(InternalRaftRequest.Builder r) {
        if (closed) {
            return CompletableFuture.failedFuture(EtcdError.STOPPED.exception());
        }
        // etcd's first check, before the request is even encoded: the apply loop is too far behind.
        if (apply.backlog() > MAX_GAP_BETWEEN_APPLY_AND_COMMIT) {
            return CompletableFuture.failedFuture(EtcdError.TOO_MANY_REQUESTS.exception());
        }
        long id = ids.next();
        InternalRaftRequest request = r.setId(id).setOrigin(memberId).build();
        com.google.protobuf.ByteString data = request.toByteString();
        if (data.size() > config.maxRequestBytes()) {
            return CompletableFuture.failedFuture(EtcdError.REQUEST_TOO_LARGE.exception());
        }
        if (sm.alarms.has(AlarmType.NOSPACE) && isSpaceConsuming(r)) {
            return CompletableFuture.failedFuture(EtcdError.NO_SPACE.exception());
        }
        if (!sm.quota.available(request)) {
            raiseNoSpaceAlarm();
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
                throw err instanceof java.util.concurrent.CompletionException ce ? ce : new java.util.concurrent.CompletionException(err);
            }
            if (res.error() != null) {
                throw res.error();
            }
            return res;
        });
    }

    private final java.util.concurrent.atomic.AtomicBoolean raisingNoSpace = new java.util.concurrent.atomic.AtomicBoolean();

    /**
     * Proposes this member's NOSPACE alarm (as etcd does when a request would pass the quota),
     * once: the alarm is applied on every member and the capped stage refuses writes from then on.
     */
    void raiseNoSpaceAlarm() {
        if (closed || sm.alarms.has(AlarmType.NOSPACE) || !raisingNoSpace.compareAndSet(false, true)) {
            return;
        }
        log.warn("message exceeded backend quota; raising alarm", "quota-size-bytes", sm.quota.quotaBytes(),
                "quota-size", (sm.quota.quotaBytes() >> 20) + " MiB", "current-db-size-bytes", sm.backend.size());
        propose(InternalRaftRequest.newBuilder().setAlarm(io.etcdj.api.etcdserverpb.AlarmRequest.newBuilder()
                .setMemberID(memberId).setAction(io.etcdj.api.etcdserverpb.AlarmRequest.AlarmAction.ACTIVATE)
                .setAlarm(AlarmType.NOSPACE)))
                .whenComplete((res, err) -> {
                    raisingNoSpace.set(false);
                    if (err != null) {
                        log.warn("failed to raise NOSPACE alarm", "error", String.valueOf(err.getMessage()));
                    }
                });
    }

    private static boolean isSpaceConsuming(InternalRaftRequest.Builder r) {
        return switch (r.getRequestCase()) {
            case PUT, LEASE_GRANT -> true;
            case TXN -> r.getTxn().getSuccessList().stream().anyMatch(op -> op.hasRequestPut() || op.hasRequestTxn())
                    || r.getTxn().getFailureList().stream().anyMatch(op -> op.hasRequestPut() || op.hasRequestTxn());
            default -> false;
        };
    }

    /**
     * Runs {@code read} on a view of the store at the current revision without ever waiting on
     * the calling thread: when the view cannot be opened at once (a write batch, a defragment),
     * the read is handed to the blocking-read threads and answered from there. Either way it sees
     * every write applied before the call.
     */
    <T> CompletableFuture<T> read(java.util.function.Function<io.etcdj.server.mvcc.ReadView, T> read) {
        io.etcdj.server.mvcc.ReadView now = sm.store.tryOpenRead();
        if (now != null) {
            try (now) {
                return CompletableFuture.completedFuture(read.apply(now));
            } catch (RuntimeException e) {
                return CompletableFuture.failedFuture(e);
            }
        }
        return blockingReads.submit(() -> {
            try (io.etcdj.server.mvcc.ReadView v = sm.store.openRead()) {
                return read.apply(v);
            }
        });
    }

    /** Completes when this member has applied everything committed before the call (ReadIndex). */
    public CompletableFuture<Void> linearizableBarrier() {
        if (closed) {
            return CompletableFuture.failedFuture(EtcdError.STOPPED.exception());
        }
        CompletableFuture<Void> f = readDeadlines.track(reads.enqueue());
        raft.wake();
        return f;
    }

    /** Renews a lease on the leader; answers with the TTL. */
    public CompletableFuture<Long> renewLease(long id) {
        if (!raft.isLeader()) {
            long lead = raft.lead();
            if (lead == 0) {
                return CompletableFuture.failedFuture(EtcdError.NO_LEADER.exception());
            }
            return CompletableFuture.supplyAsync(() -> {
                LeaseRenewResponse r = transport.renewOnLeader(lead, id, requestTimeoutMillis);
                if (r.getNotFound()) {
                    throw EtcdError.LEASE_NOT_FOUND.exception();
                }
                return r.getTtl();
            }, forwarders);
        }
        try {
            return CompletableFuture.completedFuture(sm.lessor.renew(id));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    RaftLoop raft() {
        return raft;
    }

    /**
     * A follower received the backend file for the Raft snapshot at {@code index}. It is made
     * durable under its index before Raft sees the snapshot: if the member crashes after saving
     * the snapshot and before installing the file, the restart installs it from there.
     */
    void snapshotArrived(long index, Path dbFile) {
        Path durable = SnapshotDb.path(config.snapDir(), index);
        try {
            SnapshotDb.makeDurable(dbFile, durable, metrics);
        } catch (IOException e) {
            deleteQuietly(dbFile);
            throw new java.io.UncheckedIOException("cannot store the snapshot's database file", e);
        }
        Path old = incomingSnapshots.put(index, durable);
        if (old != null && !old.equals(durable)) {
            deleteQuietly(old);
        }
    }

    private static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException ignored) {
            // a stray temp file in the member's own snap dir
        }
    }

    /**
     * Stops the member for a failure, the first time only: whichever of the raft loop, the apply
     * loop or a removal asks first wins, and a second failure seen while the member stops (the
     * other loop failing as the storage closes under it) must not log or stop it again.
     */
    /** Whether this member stopped because it was removed from the cluster (not a failure). */
    public boolean isRemoved() {
        return removed;
    }

    private boolean stopForFailure() {
        if (closed || !stopping.compareAndSet(false, true)) {
            return false;
        }
        // a start-up still waiting to be published (a restart replaying entries onto a full disk)
        // must end too, not wait for a publish that can no longer be applied
        publishedFuture.completeExceptionally(EtcdError.STOPPED.exception());
        onFatal.run();
        return true;
    }

    /**
     * Another member refused us as removed, or our own removal was applied: stop, as etcd does. etcd's
     * process then exits with status 0 (the server stopped, nothing failed): {@link #isRemoved}.
     */
    void removedFromCluster() {
        removed = true;
        log.error("the member has been permanently removed from the cluster",
                "local-member-id", MemberIds.hex(memberId));
        log.error("the data-dir used by this member must be removed");
        stopForFailure();
    }

    /** Proposes a membership change and completes when it is applied here. */
    public CompletableFuture<ApplyResult> proposeConfChange(ConfChangeType type, long nodeId, Member context) {
        if (closed) {
            return CompletableFuture.failedFuture(EtcdError.STOPPED.exception());
        }
        long id = ids.next();
        ConfChange.Builder cc = ConfChange.newBuilder().setId(id).setType(type).setNodeId(nodeId);
        if (context != null) {
            cc.setContext(context.toByteString());
        }
        CompletableFuture<ApplyResult> f = waiters.register(id, TimeUnit.MILLISECONDS.toNanos(requestTimeoutMillis));
        raft.proposeConfChange(cc.build(), f);
        return f;
    }

    /**
     * {@link #learnerReady} on the {@code forwarder} pool: asking the leader is a peer call that
     * may wait up to the request timeout, which no caller's thread should spend.
     */
    CompletableFuture<Boolean> learnerReadyAsync(long learnerId) {
        return CompletableFuture.supplyAsync(() -> learnerReady(learnerId), forwarders);
    }

    /** Makes the backend durable (an fsync) on the timer thread, which syncs it every 100 ms anyway. */
    CompletableFuture<Void> syncBackendAsync() {
        return CompletableFuture.runAsync(sm.backend::sync, timers);
    }

    /** Whether this member is a learner (as the membership it has applied says). */
    public boolean isLearner() {
        io.etcdj.api.etcdserverpb.Member self = sm.membership.member(memberId);
        return self != null && self.getIsLearner();
    }

    /** Whether the leader considers the learner caught up (asks the leader if this member is not it). */
    public boolean learnerReady(long learnerId) {
        long lead = raft.lead();
        if (lead == 0) {
            throw EtcdError.NO_LEADER.exception();
        }
        var r = lead == memberId ? new PeerBridge(this, logs).learnerReady(learnerId)
                : transport.learnerReadyOnLeader(lead, learnerId, requestTimeoutMillis);
        return r.getReady();
    }

    /** Hands leadership to {@code target}; completes when it leads. */
    public CompletableFuture<Void> moveLeader(long target) {
        if (!raft.isLeader()) {
            return CompletableFuture.failedFuture(EtcdError.NOT_LEADER.exception());
        }
        Member m = sm.membership.member(target);
        if (m == null || m.getIsLearner()) {
            return CompletableFuture.failedFuture(EtcdError.BAD_LEADER_TRANSFEREE.exception());
        }
        if (target == memberId) {
            return CompletableFuture.completedFuture(null);
        }
        // registered before the transfer starts, so the raft thread's report of the new leader cannot be missed
        CompletableFuture<Void> led = leaderWaits.await(target, clock.nanoTime() + TimeUnit.MILLISECONDS.toNanos(requestTimeoutMillis));
        raft.call(n -> {
            n.transferLeader(target);
            return null;
        });
        return led;
    }

    /** A lease's time to live as the leader knows it (a follower asks the leader). */
    public CompletableFuture<LeaseTimeToLiveResponse> timeToLive(LeaseTimeToLiveRequest r) {
        if (raft.isLeader()) {
            return CompletableFuture.completedFuture(localTimeToLive(r));
        }
        long lead = raft.lead();
        if (lead == 0) {
            return CompletableFuture.failedFuture(EtcdError.NO_LEADER.exception());
        }
        return CompletableFuture.supplyAsync(
                () -> transport.timeToLiveOnLeader(lead, r, requestTimeoutMillis).toBuilder().setHeader(header()).build(),
                forwarders);
    }

    LeaseTimeToLiveResponse localTimeToLive(LeaseTimeToLiveRequest r) {
        Lease l = sm.lessor.lookup(r.getID());
        LeaseTimeToLiveResponse.Builder b = LeaseTimeToLiveResponse.newBuilder().setID(r.getID());
        if (l == null) {
            // etcd answers an unknown lease with TTL -1 rather than an error.
            return b.setTTL(-1).setHeader(header()).build();
        }
        b.setTTL(sm.lessor.remainingSeconds(l)).setGrantedTTL(l.ttlSeconds());
        if (r.getKeys()) {
            b.addAllKeys(l.keys());
        }
        return b.setHeader(header()).build();
    }

    /** The member's own instruments: what its /metrics shows. */
    public Metrics metrics() {
        return metrics;
    }

    /** The member's gauges for a /metrics scrape. */
    public Metrics.Gauges metricsGauges() {
        var self = sm.membership.member(memberId);
        String cv = clusterVersion();
        return new Metrics.Gauges(raft.commitIndex(), config.quotaBackendBytes(), sm.backend.size(), sm.backend.recentSizeInUse(),
                sm.store.currentRevision(), sm.store.compactRevision(), hub.watcherCount(), sm.lessor.leases().size(),
                memberId, self != null && self.getIsLearner(), sm.store.liveKeys(), hub.unsyncedCount(), sm.auth.revision(),
                waiters.pending(),
                cv.chars().filter(ch -> ch == '.').count() > 1 ? cv.substring(0, cv.lastIndexOf('.')) : cv);
    }

    /**
     * The cluster version: our version, or a downgrade job's target while one is enabled (etcd 3.6
     * lowers the cluster version to the target when the job starts).
     */
    public String clusterVersion() {
        var d = sm.downgrade.info();
        return d.enabled() ? d.targetVersion() : Versions.CLUSTER;
    }

    public StatusResponse status() {
        StatusResponse.Builder b = StatusResponse.newBuilder()
                .setHeader(header())
                .setVersion(Versions.SERVER)
                .setDbSize(sm.backend.size())
                .setDbSizeInUse(sm.backend.sizeInUse())
                .setLeader(raft.lead())
                .setRaftIndex(raft.lastIndex())
                .setRaftTerm(raft.term())
                .setRaftAppliedIndex(apply.appliedIndex())
                .setStorageVersion(Versions.STORAGE)
                .setDbSizeQuota(config.quotaBackendBytes());
        Member me = sm.membership.member(memberId);
        b.setIsLearner(me != null && me.getIsLearner());
        sm.alarms.list().forEach(a -> b.addErrors("memberID:" + a.getMemberID() + " alarm:" + a.getAlarm()));
        var d = sm.downgrade.info();
        b.setDowngradeInfo(io.etcdj.api.etcdserverpb.DowngradeInfo.newBuilder().setEnabled(d.enabled())
                .setTargetVersion(d.targetVersion()));
        return b.build();
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

    private void revokeExpiredLeases() {
        if (closed || !raft.isLeader()) {
            return;
        }
        for (long id : sm.lessor.expired(500)) {
            metrics.leaseExpired.inc();
            propose(InternalRaftRequest.newBuilder().setLeaseRevoke(LeaseRevokeRequest.newBuilder().setID(id)));
        }
        sm.lessor.proposeDueCheckpoints();
    }

    /**
     * The periodic backend fsync. A failed fsync (a full or failing disk) leaves the backend's
     * durability unknown: the member stops, as etcd does when its backend commit fails, rather
     * than keep acknowledging writes (the executor would also drop the task after a failure,
     * silently, and the backend would never be synced again).
     */
    private void syncBackend() {
        if (closed) {
            return;
        }
        try {
            sm.backend.sync();
        } catch (RuntimeException e) {
            if (!closed && !stopping.get()) {
                log.fatal("failed to sync the backend; stopping the member", e);
                stopForFailure();
            }
        }
    }

    /**
     * {@code task} for a periodic schedule: a failure is logged with its stack trace and the task
     * runs again at its next turn (a scheduled executor drops a periodic task after its first
     * exception, and says nothing).
     */
    private Runnable survivingFailures(String what, Runnable task) {
        return () -> {
            try {
                task.run();
            } catch (RuntimeException e) {
                log.error("periodic task failed", e, "task", what);
            }
        };
    }

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
            leaderWaits.leaderIs(lead);
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
        public void snapshotInstalled(io.etcdj.raftpb.Snapshot snapshot) {
            Path db = incomingSnapshots.remove(snapshot.getMetadata().getIndex());
            if (db != null) {
                apply.submitSnapshot(db, snapshot.getMetadata().getIndex());
            } else {
                log.warn("raft snapshot has no backend file; keeping the local one",
                        "snapshot-index", snapshot.getMetadata().getIndex());
            }
            lastSnapshotIndex = snapshot.getMetadata().getIndex();
        }

        @Override
        public void fatal(Throwable t) {
            if (closed || stopping.get()) {
                return;
            }
            log.fatal("raft loop failed; stopping the member", t);
            stopForFailure();
        }
    }

    private final class ApplyHooks implements ApplyLoop.Hooks {
        @Override
        public void confChange(ConfChange cc, WriteBatch batch, boolean fresh) {
            if (fresh) {
                applyToMembership(cc, batch);
            }
            raft.applyConfChange(cc);
            if (cc.getType() == ConfChangeType.ConfChangeRemoveNode) {
                if (cc.getNodeId() == memberId) {
                    timers.execute(EtcdServer.this::removedFromCluster);
                } else {
                    transport.removePeer(cc.getNodeId());
                }
            }
        }

        private void applyToMembership(ConfChange cc, WriteBatch batch) {
            Member ctx = cc.getContext().isEmpty() ? null : ApplyLoop.parseMember(cc.getContext().toByteArray());
            sm.membership.apply(batch.backendTx(), cc.getType(), cc.getNodeId(), ctx);
        }

        @Override
        public void applied(long index, boolean confChange) {
            raft.appliedTo(index, confChange);
            metrics.appliedIndex.set(index);
            if (config.snapshotCount() > 0 && index - lastSnapshotIndex >= config.snapshotCount()) {
                lastSnapshotIndex = index;
                // The backend must be durable up to the snapshot before the snapshot is: a restart
                // resumes from the snapshot and never replays the entries behind it.
                sm.backend.sync();
                raft.snapshot(index, config.snapshotCatchupEntries());
            }
        }

        @Override
        public void fatal(Throwable t) {
            stopForFailure();
        }

        @Override
        public void quotaExceeded() {
            raiseNoSpaceAlarm();
        }
    }

    /** Stops serving: loops first, then storage. Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        timers.shutdownNow();
        corruptChecks.shutdownNow();
        forwarders.shutdownNow();
        transport.close();
        raft.close();
        apply.close();
        // After the loops: they hand completions to the responders until they stop.
        responders.shutdown();
        blockingReads.close();
        hub.close();
        progress.close();
        publishedFuture.completeExceptionally(EtcdError.STOPPED.exception());
        waiters.failAll(EtcdError.STOPPED.exception());
        reads.failAll(EtcdError.STOPPED.exception());
        leaderWaits.failAll(EtcdError.STOPPED.exception());
        sm.close();
        if (dataDirLock != null) {
            dataDirLock.close();
        }
    }

}
