package io.etcdj.server.etcdserver;

import io.etcdj.api.etcdserverpb.Member;
import io.etcdj.raft.Status;
import io.etcdj.server.apply.StateMachines;
import io.etcdj.server.clock.Clock;
import io.etcdj.server.config.ServerConfig;
import io.etcdj.server.config.WatchdogOptions;
import io.etcdj.server.log.Log;
import io.etcdj.server.log.LogSink;
import io.etcdj.server.membership.MemberIds;
import io.etcdj.server.transport.Transporter;
import io.etcdj.server.version.Versions;
import io.etcdj.serverpb.DowngradeInfoSet;
import io.etcdj.serverpb.InternalRaftRequest;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongFunction;

/**
 * The checks that ask the other members, on the {@code corrupt-check} thread (their peer calls
 * block up to the request timeout, which the timer thread must not spend): the periodic
 * corruption check, the compaction hash check, etcd 3.6's downgrade monitor and the promotion of
 * learners that caught up (--auto-promote-learners).
 */
final class ClusterChecks implements AutoCloseable {
    private final ScheduledExecutorService checks = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "corrupt-check");
        t.setDaemon(true);
        return t;
    });
    private final Log log;
    private final ServerConfig config;
    private final Clock clock;
    private final StateMachines sm;
    private final RaftLoop raft;
    private final Transporter transport;
    private final Proposer proposer;
    private final long memberId;
    private final long requestTimeoutMillis;

    ClusterChecks(ServerConfig config, Clock clock, StateMachines sm, RaftLoop raft, Transporter transport,
                  Proposer proposer, long memberId, long requestTimeoutMillis, LogSink logs) {
        this.log = logs.logger("etcdserver/server");
        this.config = config;
        this.clock = clock;
        this.sm = sm;
        this.raft = raft;
        this.transport = transport;
        this.proposer = proposer;
        this.memberId = memberId;
        this.requestTimeoutMillis = requestTimeoutMillis;
    }

    /** Schedules the checks the configuration enables; {@code promote} promotes a learner as a client would. */
    void start(CorruptionCheck corruption, CompactionHashCheck compactionHashes, LongFunction<CompletableFuture<?>> promote,
               LogSink logs) {
        startCorruptionChecks(corruption);
        startCompactionHashChecks(compactionHashes);
        startDowngradeMonitor(config.options().tuning().downgradeCheckTime(), logs);
        if (config.options().tuning().autoPromoteLearners()) {
            startLearnerPromoter(promote, logs);
        }
    }

    /** The periodic corruption check, every --corrupt-check-time (0: none). */
    private void startCorruptionChecks(CorruptionCheck check) {
        Duration every = config.options().corruptCheckTime();
        if (every.isZero() || every.isNegative()) {
            return;
        }
        log.info("enabled corruption checking", "local-member-id", MemberIds.hex(memberId), "interval", every.toString());
        clock.scheduleWithFixedDelay(checks, () -> {
            try {
                check.periodic(requestTimeoutMillis);
            } catch (Exception e) {
                log.warn("failed to check hash KV", "error", String.valueOf(e.getMessage()));
            }
        }, every.toMillis(), every.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The leader's compaction hash check (feature gate CompactHashCheck) every --compact-hash-check-time. */
    private void startCompactionHashChecks(CompactionHashCheck check) {
        WatchdogOptions w = config.options().watchdog();
        if (!w.compactHashCheck()) {
            return;
        }
        log.info("enabled compaction hash check", "local-member-id", MemberIds.hex(memberId),
                "interval", w.compactHashCheckTime().toString());
        long every = w.compactHashCheckTime().toMillis();
        clock.scheduleWithFixedDelay(checks, () -> {
            try {
                check.run(requestTimeoutMillis);
            } catch (RuntimeException e) {
                log.warn("failed to check compaction hashes", "error", String.valueOf(e.getMessage()));
            }
        }, every, every, TimeUnit.MILLISECONDS);
    }

    /** etcd 3.6's downgrade monitor, every --downgrade-check-time (0: none). */
    private void startDowngradeMonitor(Duration every, LogSink logs) {
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
            public List<Long> members() {
                return sm.membership.members().stream().map(Member::getID).toList();
            }

            @Override
            public String serverVersion(long member) {
                return member == memberId ? Versions.SERVER : transport.serverVersionOf(member, requestTimeoutMillis);
            }

            @Override
            public void cancelDowngrade() {
                proposer.propose(InternalRaftRequest.newBuilder().setDowngradeInfoSet(
                        DowngradeInfoSet.newBuilder().setEnabled(false)));
            }
        }, logs);
        checks.scheduleWithFixedDelay(() -> {
            try {
                monitor.check();
            } catch (RuntimeException e) {
                log.warn("failed to cancel downgrade", "error", String.valueOf(e.getMessage()));
            }
        }, every.toNanos(), every.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** --auto-promote-learners: once a second the leader promotes a learner that has caught up. */
    private void startLearnerPromoter(LongFunction<CompletableFuture<?>> promote, LogSink logs) {
        LearnerPromoter promoter = new LearnerPromoter(new LearnerPromoter.Cluster() {
            @Override
            public LearnerPromoter.Progress progress() {
                if (!raft.isLeader()) {
                    return null;
                }
                Status st = raft.call(n -> n.status()).join();
                Map<Long, Long> learners = new LinkedHashMap<>();
                for (Member m : sm.membership.members()) {
                    if (m.getIsLearner()) {
                        Status.PeerProgress p = st.progress().get(m.getID());
                        learners.put(m.getID(), p == null ? 0L : p.match());
                    }
                }
                return new LearnerPromoter.Progress(st.commit(), learners);
            }

            @Override
            public CompletableFuture<?> promote(long learner) {
                return promote.apply(learner);
            }
        }, logs);
        checks.scheduleWithFixedDelay(() -> {
            try {
                promoter.check();
            } catch (RuntimeException e) {
                log.warn("failed to check learners for promotion", "error", String.valueOf(e.getMessage()));
            }
        }, 1, 1, TimeUnit.SECONDS);
    }

    @Override
    public void close() {
        checks.shutdownNow();
    }
}
