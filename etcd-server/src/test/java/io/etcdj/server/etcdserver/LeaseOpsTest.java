package io.etcdj.server.etcdserver;

import static io.etcdj.server.etcdserver.OpsFixture.answer;
import static io.etcdj.server.etcdserver.OpsFixture.clientSees;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.etcdj.api.etcdserverpb.LeaseGrantRequest;
import io.etcdj.api.etcdserverpb.LeaseGrantResponse;
import io.etcdj.api.etcdserverpb.LeaseKeepAliveResponse;
import io.etcdj.api.etcdserverpb.LeaseLeasesResponse;
import io.etcdj.api.etcdserverpb.LeaseRevokeRequest;
import io.etcdj.api.etcdserverpb.LeaseStatus;
import io.etcdj.api.etcdserverpb.LeaseTimeToLiveRequest;
import io.etcdj.api.etcdserverpb.LeaseTimeToLiveResponse;
import io.etcdj.server.api.Caller;
import io.etcdj.server.error.EtcdError;
import io.grpc.Status;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** LeaseOps as a client sees it through the Lease service: chosen IDs, renewals on the leader, etcd's errors. */
class LeaseOpsTest {
    @TempDir
    Path dir;
    private OpsFixture f;
    private LeaseOps leases;
    /** What the leader answers to renewals: a TTL, or a failure. */
    private CompletableFuture<Long> renewal;

    @BeforeEach
    void open() {
        f = new OpsFixture(dir);
        LeaseLeader leader = new LeaseLeader() {
            @Override
            public CompletableFuture<Long> renew(long id) {
                return renewal;
            }

            @Override
            public CompletableFuture<LeaseTimeToLiveResponse> timeToLive(LeaseTimeToLiveRequest r) {
                return CompletableFuture.completedFuture(LeaseTimeToLiveResponse.newBuilder().setID(r.getID()).setTTL(9).build());
            }
        };
        long[] next = {0x70};
        leases = new LeaseOps(f.proposer, f.reads, f.headers, leader, f.sm.lessor, () -> next[0]++);
    }

    @AfterEach
    void close() {
        f.close();
    }

    @Test
    void aGrantWithoutAnIdGetsOneMadeByTheMemberAndTheRevisionItWasAppliedAt() throws Exception {
        LeaseGrantResponse made = answer(leases.grant(Caller.ANONYMOUS, LeaseGrantRequest.newBuilder().setTTL(60).build()));
        LeaseGrantResponse chosen = answer(leases.grant(Caller.ANONYMOUS,
                LeaseGrantRequest.newBuilder().setID(5).setTTL(60).build()));
        assertEquals(0x70, made.getID());
        assertEquals(60, made.getTTL());
        assertEquals(5, chosen.getID());
        assertEquals(OpsFixture.MEMBER, chosen.getHeader().getMemberId());
        assertEquals(f.sm.store.currentRevision(), chosen.getHeader().getRevision());
        LeaseLeasesResponse all = answer(leases.leases());
        assertEquals(List.of(5L, 0x70L), all.getLeasesList().stream().map(LeaseStatus::getID).toList());
    }

    @Test
    void grantAndRevokeAreMadeAsTheCaller() throws Exception {
        answer(leases.grant(f.as("carol"), LeaseGrantRequest.newBuilder().setID(5).setTTL(60).build()));
        assertEquals("carol", f.lastProposed().getHeader().getUsername());
        answer(leases.revoke(f.as("dave"), LeaseRevokeRequest.newBuilder().setID(5).build()));
        assertEquals("dave", f.lastProposed().getHeader().getUsername());
        Status s = clientSees(leases.revoke(Caller.ANONYMOUS, LeaseRevokeRequest.newBuilder().setID(5).build()));
        assertEquals(Status.Code.NOT_FOUND, s.getCode());
        assertEquals("etcdserver: requested lease not found", s.getDescription());
    }

    @Test
    void aKeepAliveAnswersTheLeadersTtlAndZeroForAnUnknownLease() throws Exception {
        renewal = CompletableFuture.completedFuture(42L);
        LeaseKeepAliveResponse alive = answer(leases.keepAlive(7));
        assertEquals(7, alive.getID());
        assertEquals(42, alive.getTTL());
        assertEquals(OpsFixture.TERM, alive.getHeader().getRaftTerm());
        renewal = CompletableFuture.failedFuture(EtcdError.LEASE_NOT_FOUND.exception());
        LeaseKeepAliveResponse gone = answer(leases.keepAlive(7));
        assertEquals(0, gone.getTTL(), "etcd answers an unknown lease's keep-alive with TTL 0, not an error");
    }

    @Test
    void aKeepAliveWithoutALeaderFailsAsEtcdDoes() {
        renewal = CompletableFuture.failedFuture(EtcdError.NO_LEADER.exception());
        Status s = clientSees(leases.keepAlive(7));
        assertEquals(Status.Code.UNAVAILABLE, s.getCode());
        assertEquals("etcdserver: no leader", s.getDescription());
    }

    @Test
    void theLeaseListWaitsForTheBarrier() throws Exception {
        f.barrier = new CompletableFuture<>();
        CompletableFuture<LeaseLeasesResponse> list = leases.leases();
        assertFalse(list.isDone());
        f.barrier.complete(null);
        assertEquals(0, answer(list).getLeasesCount());
        assertEquals(9, answer(leases.timeToLive(LeaseTimeToLiveRequest.newBuilder().setID(3).build())).getTTL());
    }
}
