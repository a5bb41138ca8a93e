package io.etcdj.server.etcdserver;

import static io.etcdj.server.etcdserver.OpsFixture.answer;
import static io.etcdj.server.etcdserver.OpsFixture.bs;
import static io.etcdj.server.etcdserver.OpsFixture.clientSees;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.etcdj.api.etcdserverpb.CompactionRequest;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.api.etcdserverpb.PutResponse;
import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.api.etcdserverpb.RangeResponse;
import io.etcdj.server.api.Caller;
import io.etcdj.server.auth.AuthInfo;
import io.etcdj.server.error.EtcdError;
import io.etcdj.server.log.Log;
import io.etcdj.server.metrics.Metrics;
import io.etcdj.server.slowlog.SlowApplies;
import io.grpc.Status;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** KvOps as a client sees it through the KV service: headers, values, etcd's refusals, the caller's identity and deadline. */
class KvOpsTest {
    @TempDir
    Path dir;
    private OpsFixture f;
    private KvOps kv;
    private int syncs;

    @BeforeEach
    void open() {
        f = new OpsFixture(dir);
        Metrics metrics = new Metrics();
        kv = new KvOps(f.proposer, f.reads, f.headers, f.sm.auth, f.sm.store, () -> {
            syncs++;
            return CompletableFuture.completedFuture(null);
        }, metrics, new SlowApplies(metrics, Log.processSink()), Duration.ofMillis(100), 128);
    }

    @AfterEach
    void close() {
        f.close();
    }

    private static PutRequest put(String k, String v) {
        return PutRequest.newBuilder().setKey(bs(k)).setValue(bs(v)).build();
    }

    private static RangeRequest get(String k) {
        return RangeRequest.newBuilder().setKey(bs(k)).build();
    }

    @Test
    void aPutIsAnsweredWithTheRevisionOfItsWriteTheMemberAndTheTerm() throws Exception {
        PutResponse first = answer(kv.put(Caller.ANONYMOUS, put("a", "1")));
        PutResponse second = answer(kv.put(Caller.ANONYMOUS, put("a", "2")));
        assertEquals(2, first.getHeader().getRevision());
        assertEquals(3, second.getHeader().getRevision());
        assertEquals(OpsFixture.CLUSTER, second.getHeader().getClusterId());
        assertEquals(OpsFixture.MEMBER, second.getHeader().getMemberId());
        assertEquals(OpsFixture.TERM, second.getHeader().getRaftTerm());
        RangeResponse r = answer(kv.range(Caller.ANONYMOUS, get("a")));
        assertEquals("2", r.getKvs(0).getValue().toStringUtf8());
        assertEquals(3, r.getHeader().getRevision());
    }

    @Test
    void theProposalCarriesTheCallerAndWaitsNoLongerThanItsDeadline() throws Exception {
        Caller bob = new Caller(new AuthInfo("bob", 4), TimeUnit.SECONDS.toNanos(3));
        answer(kv.put(bob, put("k", "v")));
        assertEquals("bob", f.lastProposed().getHeader().getUsername());
        assertEquals(4, f.lastProposed().getHeader().getAuthRevision());
        assertEquals(TimeUnit.SECONDS.toNanos(3), f.timeouts.get(f.timeouts.size() - 1));
    }

    @Test
    void aWriteTheCallersRolesDoNotAllowIsRefusedWithEtcdsPermissionDenied() throws Exception {
        Caller alice = f.enableAuthWithAlice();
        Status s = clientSees(kv.put(alice, put("a", "1")));
        assertEquals(Status.Code.PERMISSION_DENIED, s.getCode());
        assertEquals("etcdserver: permission denied", s.getDescription());
        // the same user may read what her role allows; the root user may write
        assertEquals(0, answer(kv.range(alice, get("a"))).getCount());
        answer(kv.put(f.as("root"), put("a", "1")));
        assertEquals(1, answer(kv.range(alice, get("a"))).getCount());
    }

    @Test
    void aReadOutsideTheCallersPermissionsIsRefusedOnceOrdered() {
        Caller alice = f.enableAuthWithAlice();
        Status s = clientSees(kv.range(alice, get("z")));
        assertEquals(Status.Code.PERMISSION_DENIED, s.getCode());
        assertEquals(1, f.barriers, "checked after the ReadIndex barrier, against the permissions it is served under");
    }

    @Test
    void aLinearizableReadWaitsForTheBarrierASerializableOneDoesNot() throws Exception {
        answer(kv.put(Caller.ANONYMOUS, put("a", "1")));
        f.barrier = new CompletableFuture<>();
        CompletableFuture<RangeResponse> linearizable = kv.range(Caller.ANONYMOUS, get("a"));
        RangeResponse serializable = answer(kv.range(Caller.ANONYMOUS, get("a").toBuilder().setSerializable(true).build()));
        assertEquals(1, serializable.getCount());
        assertFalse(linearizable.isDone(), "answered before this member applied what was committed before it");
        f.barrier.complete(null);
        assertEquals(1, answer(linearizable).getCount());
    }

    @Test
    void aRefusedProposalReachesTheClientAsEtcdsError() {
        f.refuse = EtcdError.NO_SPACE.exception();
        Status s = clientSees(kv.put(Caller.ANONYMOUS, put("a", "1")));
        assertEquals(Status.Code.RESOURCE_EXHAUSTED, s.getCode());
        assertEquals("etcdserver: mvcc: database space exceeded", s.getDescription());
    }

    @Test
    void aReadAboveTheCurrentRevisionIsAFutureRevision() throws Exception {
        answer(kv.put(Caller.ANONYMOUS, put("a", "1")));
        Status s = clientSees(kv.range(Caller.ANONYMOUS, get("a").toBuilder().setRevision(10).build()));
        assertEquals(Status.Code.OUT_OF_RANGE, s.getCode());
        assertEquals("etcdserver: mvcc: required revision is a future revision", s.getDescription());
    }

    @Test
    void aPhysicalCompactionIsAnsweredOnceTheHistoryIsGoneAndSynced() throws Exception {
        f.sm.store.startBackgroundCompaction(1000, 0);
        answer(kv.put(Caller.ANONYMOUS, put("a", "1")));
        answer(kv.put(Caller.ANONYMOUS, put("a", "2")));
        answer(kv.compact(Caller.ANONYMOUS, CompactionRequest.newBuilder().setRevision(2).build()));
        assertEquals(0, syncs, "a logical compaction is answered once applied");
        answer(kv.put(Caller.ANONYMOUS, put("a", "3")));
        answer(kv.compact(Caller.ANONYMOUS, CompactionRequest.newBuilder().setRevision(3).setPhysical(true).build()));
        assertEquals(1, syncs);
        Status s = clientSees(kv.range(Caller.ANONYMOUS, get("a").toBuilder().setRevision(2).build()));
        assertEquals("etcdserver: mvcc: required revision has been compacted", s.getDescription());
        assertEquals(128, kv.maxTxnOps());
    }
}
