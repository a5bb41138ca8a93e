package io.etcdj.server.etcdserver;

import io.etcdj.api.etcdserverpb.LeaseTimeToLiveRequest;
import io.etcdj.api.etcdserverpb.LeaseTimeToLiveResponse;
import io.etcdj.api.etcdserverpb.Member;
import io.etcdj.peerpb.LeaseRenewResponse;
import io.etcdj.server.clock.Clock;
import io.etcdj.server.error.EtcdError;
import io.etcdj.server.lease.Lease;
import io.etcdj.server.lease.Lessor;
import io.etcdj.server.membership.Membership;
import io.etcdj.server.transport.PeerHandler;
import io.etcdj.server.transport.Transporter;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * What only the leader answers, asked of it from any member: lease renewals and time-to-live
 * (etcd's v3_server.go LeaseRenew / LeaseTimeToLive forwarded over the peer port), whether a
 * learner caught up, and leader transfers (MoveLeader). Calls that go to another member run on
 * the {@code forward-to-leader} pool, so a gRPC thread never waits on the network.
 */
final class LeaderForwarding implements LeaseLeader, AutoCloseable {
    /** Runs calls forwarded to the leader, so gRPC threads never block on another member. */
    private final ExecutorService forwarders = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "forward-to-leader");
        t.setDaemon(true);
        return t;
    });
    /** Leader transfers waiting for their transferee to lead. */
    private final LeaderWaits leaderWaits;
    private final RaftLoop raft;
    private final Transporter transport;
    /** This member's own answers to the peer questions, for when it leads. */
    private final PeerHandler local;
    private final Lessor lessor;
    private final Membership membership;
    private final Headers headers;
    private final Clock clock;
    private final long memberId;
    private final long requestTimeoutMillis;

    LeaderForwarding(RaftLoop raft, Transporter transport, PeerHandler local, Lessor lessor, Membership membership,
                     Headers headers, LeaderWaits leaderWaits, Clock clock, long memberId, long requestTimeoutMillis) {
        this.leaderWaits = leaderWaits;
        this.raft = raft;
        this.transport = transport;
        this.local = local;
        this.lessor = lessor;
        this.membership = membership;
        this.headers = headers;
        this.clock = clock;
        this.memberId = memberId;
        this.requestTimeoutMillis = requestTimeoutMillis;
    }

    /** Renews a lease on the leader; answers with the TTL. */
    @Override
    public CompletableFuture<Long> renew(long id) {
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
            return CompletableFuture.completedFuture(lessor.renew(id));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** A lease's time to live as the leader knows it (a follower asks the leader). */
    @Override
    public CompletableFuture<LeaseTimeToLiveResponse> timeToLive(LeaseTimeToLiveRequest r) {
        if (raft.isLeader()) {
            return CompletableFuture.completedFuture(localTimeToLive(r));
        }
        long lead = raft.lead();
        if (lead == 0) {
            return CompletableFuture.failedFuture(EtcdError.NO_LEADER.exception());
        }
        return CompletableFuture.supplyAsync(() -> transport.timeToLiveOnLeader(lead, r, requestTimeoutMillis).toBuilder()
                .setHeader(headers.header()).build(), forwarders);
    }

    /** A lease's time to live as this member's lessor knows it. */
    LeaseTimeToLiveResponse localTimeToLive(LeaseTimeToLiveRequest r) {
        Lease l = lessor.lookup(r.getID());
        LeaseTimeToLiveResponse.Builder b = LeaseTimeToLiveResponse.newBuilder().setID(r.getID());
        if (l == null) {
            // etcd answers an unknown lease with TTL -1 rather than an error.
            return b.setTTL(-1).setHeader(headers.header()).build();
        }
        b.setTTL(lessor.remainingSeconds(l)).setGrantedTTL(l.ttlSeconds());
        if (r.getKeys()) {
            b.addAllKeys(l.keys());
        }
        return b.setHeader(headers.header()).build();
    }

    /** Whether the leader considers the learner caught up (asks the leader if this member is not it). */
    boolean learnerReady(long learnerId) {
        long lead = raft.lead();
        if (lead == 0) {
            throw EtcdError.NO_LEADER.exception();
        }
        var r = lead == memberId ? local.learnerReady(learnerId)
                : transport.learnerReadyOnLeader(lead, learnerId, requestTimeoutMillis);
        return r.getReady();
    }

    /**
     * {@link #learnerReady} on the forwarding pool: asking the leader is a peer call that may wait
     * up to the request timeout, which no caller's thread should spend.
     */
    CompletableFuture<Boolean> learnerReadyAsync(long learnerId) {
        return CompletableFuture.supplyAsync(() -> learnerReady(learnerId), forwarders);
    }

    /** Hands leadership to {@code target}; completes when it leads. */
    CompletableFuture<Void> moveLeader(long target) {
        if (!raft.isLeader()) {
            return CompletableFuture.failedFuture(EtcdError.NOT_LEADER.exception());
        }
        Member m = membership.member(target);
        if (m == null || m.getIsLearner()) {
            return CompletableFuture.failedFuture(EtcdError.BAD_LEADER_TRANSFEREE.exception());
        }
        if (target == memberId) {
            return CompletableFuture.completedFuture(null);
        }
        // registered before the transfer starts, so the raft thread's report of the new leader cannot be missed
        long deadline = clock.nanoTime() + TimeUnit.MILLISECONDS.toNanos(requestTimeoutMillis);
        CompletableFuture<Void> led = leaderWaits.await(target, deadline);
        raft.call(n -> {
            n.transferLeader(target);
            return null;
        });
        return led;
    }

    /** Fails the leader transfers past their deadline (the deadline sweep). */
    void expire() {
        leaderWaits.expire(clock.nanoTime());
    }

    /**
     * Runs a task that waits on the cluster (publishing the member waits for its proposal) on the
     * forwarding pool, off the timer thread whose sweeps fail proposals that time out.
     */
    void execute(Runnable task) {
        forwarders.execute(task);
    }

    /** Stops forwarding; transfers still waiting fail as stopped. */
    @Override
    public void close() {
        forwarders.shutdownNow();
        leaderWaits.failAll(EtcdError.STOPPED.exception());
    }
}
