package io.etcdj.server.etcdserver;

import io.etcdj.api.etcdserverpb.CompactionRequest;
import io.etcdj.api.etcdserverpb.LeaseRevokeRequest;
import io.etcdj.api.etcdserverpb.Member;
import io.etcdj.server.apply.ApplyResult;
import io.etcdj.server.apply.StateMachines;
import io.etcdj.server.clock.Clock;
import io.etcdj.server.compactor.Compactor;
import io.etcdj.server.config.ServerConfig;
import io.etcdj.server.config.StoreTuning;
import io.etcdj.server.lease.Lessor;
import io.etcdj.server.log.Log;
import io.etcdj.server.log.LogSink;
import io.etcdj.server.metrics.Metrics;
import io.etcdj.server.read.ReadDeadlines;
import io.etcdj.server.transport.Transporter;
import io.etcdj.server.version.Versions;
import io.etcdj.server.wait.Waiters;
import io.etcdj.serverpb.InternalRaftRequest;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The member's periodic work on its {@code server-timers} thread, every task on the member's
 * clock: lease expiry and checkpoints (leader), the backend's periodic fsync, the deadline sweep
 * of proposals, reads and leader transfers, auto-compaction and the start-up election tick
 * advance (etcd's server.go run loop and its goroutines).
 */
final class BackgroundJobs implements AutoCloseable {
    private final ScheduledExecutorService timers = Executors.newScheduledThreadPool(1, r -> {
        Thread t = new Thread(r, "server-timers");
        t.setDaemon(true);
        return t;
    });
    private final Log log;
    private final ServerConfig config;
    private final Clock clock;
    private final Metrics metrics;
    private final StateMachines sm;
    private final RaftLoop raft;
    private final Transporter transport;
    private final Proposer proposer;
    private final Waiters<ApplyResult> waiters;
    private final ReadDeadlines readDeadlines;
    private final LeaderForwarding forwarding;
    private final Lifecycle lifecycle;
    private final Supplier<String> clusterVersion;
    private final long memberId;

    BackgroundJobs(ServerConfig config, Clock clock, Metrics metrics, StateMachines sm, RaftLoop raft, Transporter transport,
                   Proposer proposer, Waiters<ApplyResult> waiters, ReadDeadlines readDeadlines, LeaderForwarding forwarding,
                   Lifecycle lifecycle, Supplier<String> clusterVersion, long memberId, LogSink logs) {
        this.log = logs.logger("etcdserver/server");
        this.config = config;
        this.clock = clock;
        this.metrics = metrics;
        this.sm = sm;
        this.raft = raft;
        this.transport = transport;
        this.proposer = proposer;
        this.waiters = waiters;
        this.readDeadlines = readDeadlines;
        this.forwarding = forwarding;
        this.lifecycle = lifecycle;
        this.clusterVersion = clusterVersion;
        this.memberId = memberId;
    }

    /**
     * Starts the store's background compaction (before the apply loop, which hands it the
     * compactions it applies), with the member's failpoints between batches and before a
     * defragment's copy.
     */
    void startBackgroundCompaction(Failpoints failpoints) {
        sm.store.afterCompactionBatch(() -> failpoints.hit("compactAfterCommitBatch"));
        sm.backend.beforeDefragCopy(() -> failpoints.hit("defragBeforeCopy"));
        StoreTuning t = config.options().storeTuning();
        sm.store.startBackgroundCompaction(t.compactionBatchLimit(), t.compactionSleepInterval().toNanos());
    }

    /**
     * etcd's start-up election tick advance, and beyond it a first election without a timeout's
     * wait (see {@link ElectionTickAdvance}): a lone member campaigns as soon as Raft lets it; of
     * several, the one with the lowest ID campaigns with the advance if its log holds only the
     * bootstrap's entries, one per member, and it has never known a leader.
     */
    private void startElectionTimers() {
        List<Long> ids = sm.membership.members().stream().map(Member::getID).sorted(Long::compareUnsigned).toList();
        Runnable campaign = () -> raft.call(node -> {
            node.campaign();
            return null;
        });
        if (ids.size() == 1) {
            ElectionTickAdvance.startSoleVoter(clock, timers, () -> raft.lead() != 0, campaign);
        }
        boolean opensFirstElection = !ids.isEmpty() && ids.get(0) == memberId;
        Runnable firstElection = () -> {
            if (opensFirstElection && raft.term() <= 1 && raft.lead() == 0 && raft.lastIndex() == ids.size()) {
                campaign.run();
            }
        };
        ElectionTickAdvance.start(log, config.options().tuning().initialElectionTickAdvance(), ids.size(), memberId,
                config.electionTicks(), config.heartbeatMillis(), clock, timers, transport::activePeers, raft::advanceTicks,
                firstElection);
    }

    /** Configures lease checkpoints and schedules every task; the loops must be started. */
    void start(LogSink logs) {
        configureLeaseCheckpoints();
        clock.scheduleWithFixedDelay(timers, survivingFailures("lease expiry", this::revokeExpiredLeases), 500, 500,
                TimeUnit.MILLISECONDS);
        long syncEvery = config.options().backendBatch().interval().toMillis();
        clock.scheduleWithFixedDelay(timers, this::syncBackend, syncEvery, Math.max(1, syncEvery), TimeUnit.MILLISECONDS);
        clock.scheduleWithFixedDelay(timers, survivingFailures("request deadlines", () -> {
            waiters.expire();
            readDeadlines.sweep(raft.lead() != 0);
            forwarding.expire();
        }), 100, 100, TimeUnit.MILLISECONDS);
        startElectionTimers();
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
                return proposer.propose(InternalRaftRequest.newBuilder().setCompaction(
                        CompactionRequest.newBuilder().setRevision(revision)));
            }
        }, config, clock, logs).schedule(clock, timers);
    }

    /**
     * Lease checkpoints (gate LeaseCheckpoint): the lessor proposes them through Raft, and applied
     * ones are persisted with the gate LeaseCheckpointPersist or in a 3.6 cluster, as etcd does.
     */
    private void configureLeaseCheckpoints() {
        StoreTuning t = config.options().storeTuning();
        Lessor.Checkpointer cp = !t.leaseCheckpoint() ? null : req ->
                proposer.propose(InternalRaftRequest.newBuilder().setLeaseCheckpoint(req)).whenComplete((r, e) -> {
                    if (e != null && !lifecycle.closed()) {
                        log.warn("failed to checkpoint leases", "error", String.valueOf(e.getMessage()));
                    }
                });
        sm.lessor.configureCheckpoints(cp, t.leaseCheckpointInterval().toNanos(),
                () -> t.leaseCheckpointPersist() || Versions.atLeast(clusterVersion.get(), 3, 6));
    }

    /** Runs {@code task} on the timer thread (the member's removal, which must not run on the apply thread). */
    void execute(Runnable task) {
        timers.execute(task);
    }

    /** Makes the backend durable (an fsync) on the timer thread, which syncs it every 100 ms anyway. */
    CompletableFuture<Void> syncBackendAsync() {
        return CompletableFuture.runAsync(sm.backend::sync, timers);
    }

    private void revokeExpiredLeases() {
        if (lifecycle.closed() || !raft.isLeader()) {
            return;
        }
        for (long id : sm.lessor.expired(500)) {
            metrics.leaseExpired.inc();
            proposer.propose(InternalRaftRequest.newBuilder().setLeaseRevoke(LeaseRevokeRequest.newBuilder().setID(id)));
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
        if (lifecycle.closed()) {
            return;
        }
        try {
            sm.backend.sync();
        } catch (RuntimeException e) {
            if (!lifecycle.stoppingOrClosed()) {
                log.fatal("failed to sync the backend; stopping the member", e);
                lifecycle.stopForFailure();
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

    @Override
    public void close() {
        timers.shutdownNow();
    }
}
