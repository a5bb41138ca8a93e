package io.etcdj.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.CompactionRequest;
import io.etcdj.api.etcdserverpb.DeleteRangeRequest;
import io.etcdj.api.etcdserverpb.LeaseGrantRequest;
import io.etcdj.api.etcdserverpb.LeaseKeepAliveRequest;
import io.etcdj.api.etcdserverpb.LeaseKeepAliveResponse;
import io.etcdj.api.etcdserverpb.LeaseLeasesRequest;
import io.etcdj.api.etcdserverpb.LeaseLeasesResponse;
import io.etcdj.api.etcdserverpb.LeaseRevokeRequest;
import io.etcdj.api.etcdserverpb.LeaseStatus;
import io.etcdj.api.etcdserverpb.LeaseTimeToLiveRequest;
import io.etcdj.api.etcdserverpb.LeaseTimeToLiveResponse;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.api.etcdserverpb.WatchCancelRequest;
import io.etcdj.api.etcdserverpb.WatchCreateRequest;
import io.etcdj.api.etcdserverpb.WatchProgressRequest;
import io.etcdj.api.etcdserverpb.WatchRequest;
import io.etcdj.api.etcdserverpb.WatchResponse;
import io.etcdj.harness.EtcdClusterExtension;
import io.etcdj.harness.EtcdProcess;
import io.etcdj.harness.Eventually;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Watch and Lease against the real etcd 3.4 and ours, compared field by field. Watches start from a
 * revision in the scenario's own history, so what they deliver does not depend on timing. Leases use
 * client-chosen IDs (unique per test) where the scenario needs to name them.
 */
class DifferentialWatchLeaseIT {
    private static final long WAIT_MS = 15_000;

    @RegisterExtension
    static final EtcdClusterExtension SERVERS = EtcdClusterExtension.of(EtcdProcess.realEtcd(), EtcdProcess.ours());
    private static Differential diff;

    @BeforeAll
    static void connect() {
        diff = Differential.connect(SERVERS.member(0), SERVERS.member(1));
    }

    @AfterAll
    static void disconnect() throws InterruptedException {
        diff.close();
    }

    @BeforeEach
    void scenario(TestInfo test) {
        diff.startScenario(test.getDisplayName());
    }

    private static ByteString k(String name) {
        return diff.key(name);
    }

    private static ByteString prefixEnd(ByteString prefix) {
        byte[] b = prefix.toByteArray();
        b[b.length - 1]++;
        return ByteString.copyFrom(b);
    }

    private static void put(String key, String value) {
        diff.sameOk("put " + key,
                s -> s.grpc().kv().put(PutRequest.newBuilder().setKey(k(key)).setValue(ByteString.copyFromUtf8(value)).build()));
    }

    private static void delete(String key) {
        diff.sameOk("delete " + key, s -> s.grpc().kv().deleteRange(DeleteRangeRequest.newBuilder().setKey(k(key)).build()));
    }

    /** a(1) b(2) a(3) -a(4) c(5) b(6) -b(7). */
    private static void writeHistory() {
        put("a", "1");
        put("b", "2");
        put("a", "3");
        delete("a");
        put("c", "5");
        put("b", "6");
        delete("b");
    }

    private static WatchRequest create(WatchCreateRequest.Builder b) {
        return WatchRequest.newBuilder().setCreateRequest(b).build();
    }

    private static WatchCreateRequest.Builder prefixFrom(Differential.Side s, long delta) {
        return WatchCreateRequest.newBuilder().setKey(k("")).setRangeEnd(prefixEnd(k(""))).setStartRevision(Differential.rev(s, delta));
    }

    /**
     * Opens a stream on the side, sends the requests, and returns the responses carrying {@code events} events after {@code responses}
     * others.
     */
    private static List<WatchResponse> watch(Differential.Side s, int responses, int events, WatchRequest... requests)
            throws InterruptedException {
        try (WatchSession w = new WatchSession(s.grpc())) {
            for (WatchRequest r : requests) {
                w.send(r);
            }
            List<WatchResponse> got = new ArrayList<>(w.take(responses, WAIT_MS));
            if (events > 0) {
                got.addAll(w.takeEvents(events, WAIT_MS));
            }
            return got;
        }
    }

    @Test
    void watchPrefixFromHistoryWithPrevKv() {
        writeHistory();
        diff.sameList("history from base+1 with prev_kv", s -> watch(s, 1, 7, create(prefixFrom(s, 1).setPrevKv(true))));
        diff.sameList("history from base+4", s -> watch(s, 1, 4, create(prefixFrom(s, 4))));
        diff.sameList("one key from base+1", s -> watch(s, 1, 3, create(WatchCreateRequest.newBuilder().setKey(k("a"))
                .setStartRevision(Differential.rev(s, 1)).setPrevKv(true))));
    }

    @Test
    void watchFilters() {
        writeHistory();
        diff.sameList("NOPUT", s -> watch(s, 1, 2, create(prefixFrom(s, 1).addFilters(WatchCreateRequest.FilterType.NOPUT))));
        diff.sameList("NODELETE", s -> watch(s, 1, 5, create(prefixFrom(s, 1).addFilters(WatchCreateRequest.FilterType.NODELETE))));
    }

    @Test
    void watchFromTheCompactionPointWorks() {
        writeHistory();
        diff.sameOk("compact at base+3", s -> s.grpc().kv().compact(CompactionRequest.newBuilder()
                .setRevision(Differential.rev(s, 3)).setPhysical(true).build()));
        diff.sameList("watch from base+3", s -> watch(s, 1, 5, create(prefixFrom(s, 3))));
    }

    @Test
    void watchFromACompactedRevisionIsCanceled() {
        writeHistory();
        diff.sameOk("compact at base+3", s -> s.grpc().kv().compact(CompactionRequest.newBuilder()
                .setRevision(Differential.rev(s, 3)).setPhysical(true).build()));
        diff.sameList("watch from base+1", s -> watch(s, 2, 0, create(prefixFrom(s, 1))));
    }

    @Test
    void clientChosenWatchIds() {
        writeHistory();
        diff.sameList("watch_id 7, then automatic twice", s -> {
            try (WatchSession w = new WatchSession(s.grpc())) {
                w.send(create(WatchCreateRequest.newBuilder().setKey(k("nothing")).setWatchId(7)));
                List<WatchResponse> got = new ArrayList<>(w.take(1, WAIT_MS));
                w.send(create(WatchCreateRequest.newBuilder().setKey(k("nothing"))));
                got.addAll(w.take(1, WAIT_MS));
                w.send(create(WatchCreateRequest.newBuilder().setKey(k("nothing"))));
                got.addAll(w.take(1, WAIT_MS));
                return got;
            }
        });
    }

    @Test
    void duplicateWatchIdIsRefused() {
        diff.sameList("watch_id 7 twice on one stream", s -> {
            try (WatchSession w = new WatchSession(s.grpc())) {
                w.send(create(WatchCreateRequest.newBuilder().setKey(k("nothing")).setWatchId(7)));
                List<WatchResponse> got = new ArrayList<>(w.take(1, WAIT_MS));
                w.send(create(WatchCreateRequest.newBuilder().setKey(k("nothing")).setWatchId(7)));
                got.addAll(w.take(1, WAIT_MS));
                return got;
            }
        });
    }

    @Test
    void cancelAndProgress() {
        put("x", "1");
        diff.sameList("create, progress, cancel unknown then known", s -> {
            try (WatchSession w = new WatchSession(s.grpc())) {
                w.send(create(WatchCreateRequest.newBuilder().setKey(k("x")).setWatchId(3)));
                List<WatchResponse> got = new ArrayList<>(w.take(1, WAIT_MS));
                w.send(WatchRequest.newBuilder().setProgressRequest(WatchProgressRequest.getDefaultInstance()).build());
                got.addAll(w.take(1, WAIT_MS));
                w.send(WatchRequest.newBuilder().setCancelRequest(WatchCancelRequest.newBuilder().setWatchId(99)).build());
                w.send(WatchRequest.newBuilder().setCancelRequest(WatchCancelRequest.newBuilder().setWatchId(3)).build());
                got.addAll(w.take(1, WAIT_MS));
                return got;
            }
        });
    }

    @Test
    void liveEventsWithPrevKv() {
        put("live", "0");
        diff.sameList("events after the watch was created", s -> {
            try (WatchSession w = new WatchSession(s.grpc())) {
                w.send(create(WatchCreateRequest.newBuilder().setKey(k("live")).setPrevKv(true)));
                List<WatchResponse> got = new ArrayList<>(w.take(1, WAIT_MS));
                for (String v : new String[] {"1", "2"}) {
                    s.grpc().kv().put(PutRequest.newBuilder().setKey(k("live")).setValue(ByteString.copyFromUtf8(v)).build());
                    got.addAll(w.takeEvents(1, WAIT_MS));
                }
                s.grpc().kv().deleteRange(DeleteRangeRequest.newBuilder().setKey(k("live")).build());
                got.addAll(w.takeEvents(1, WAIT_MS));
                assertNull(w.poll(200), "no further responses");
                return got;
            }
        });
    }

    private static LeaseTimeToLiveResponse timeToLive(Differential.Side s, long id, boolean keys) {
        LeaseTimeToLiveResponse r = s.grpc().lease().leaseTimeToLive(LeaseTimeToLiveRequest.newBuilder().setID(id).setKeys(keys).build());
        // the remaining TTL ticks; within 5 s of the grant it is reported as the granted TTL. etcd keeps a
        // lease's keys in a hash map, so their order is unspecified: compare them sorted
        List<ByteString> keysSorted = r.getKeysList().stream().sorted(ByteString.unsignedLexicographicalComparator()).toList();
        LeaseTimeToLiveResponse.Builder b = r.toBuilder().clearKeys().addAllKeys(keysSorted);
        return r.getTTL() > 0 && r.getGrantedTTL() - r.getTTL() <= 5 ? b.setTTL(r.getGrantedTTL()).build() : b.build();
    }

    @Test
    void leaseGrantTimeToLiveAndRevoke() {
        long id = 0x2000_0001L;
        diff.sameOk("grant with chosen ID", s -> s.grpc().lease().leaseGrant(LeaseGrantRequest.newBuilder().setID(id).setTTL(600).build()));
        diff.sameError("grant the same ID again",
                s -> s.grpc().lease().leaseGrant(LeaseGrantRequest.newBuilder().setID(id).setTTL(600).build()));
        diff.sameOk("attach a", s -> s.grpc().kv().put(PutRequest.newBuilder().setKey(k("a")).setLease(id).build()));
        diff.sameOk("attach b", s -> s.grpc().kv().put(PutRequest.newBuilder().setKey(k("b")).setLease(id).build()));
        diff.sameOk("time to live with keys", s -> timeToLive(s, id, true));
        diff.sameOk("time to live without keys", s -> timeToLive(s, id, false));
        diff.sameOk("listed", s -> {
            LeaseLeasesResponse all = s.grpc().lease().leaseLeases(LeaseLeasesRequest.getDefaultInstance());
            List<LeaseStatus> mine = all.getLeasesList().stream().filter(l -> l.getID() == id).toList();
            return all.toBuilder().clearLeases().addAllLeases(mine).build();
        });
        diff.sameOk("revoke", s -> s.grpc().lease().leaseRevoke(LeaseRevokeRequest.newBuilder().setID(id).build()));
        diff.sameOk("keys went with the lease",
                s -> s.grpc().kv().range(RangeRequest.newBuilder().setKey(k("")).setRangeEnd(prefixEnd(k(""))).build()));
        diff.sameOk("time to live after revoke", s -> timeToLive(s, id, true));
        diff.sameError("revoke again", s -> s.grpc().lease().leaseRevoke(LeaseRevokeRequest.newBuilder().setID(id).build()));
    }

    @Test
    void leaseGrantEdgeCases() {
        diff.sameOk("generated ID", s -> s.grpc().lease().leaseGrant(LeaseGrantRequest.newBuilder().setTTL(600).build()));
        diff.sameOk("TTL below the minimum",
                s -> s.grpc().lease().leaseGrant(LeaseGrantRequest.newBuilder().setID(0x2000_0011L).setTTL(1).build()));
        diff.sameOk("TTL 0", s -> s.grpc().lease().leaseGrant(LeaseGrantRequest.newBuilder().setID(0x2000_0012L).setTTL(0).build()));
        diff.sameOk("negative TTL",
                s -> s.grpc().lease().leaseGrant(LeaseGrantRequest.newBuilder().setID(0x2000_0013L).setTTL(-5).build()));
        diff.sameError("TTL too large", s -> s.grpc().lease().leaseGrant(LeaseGrantRequest.newBuilder().setTTL(9_000_000_001L).build()));
        diff.sameOk("largest TTL",
                s -> s.grpc().lease().leaseGrant(LeaseGrantRequest.newBuilder().setID(0x2000_0014L).setTTL(9_000_000_000L).build()));
        diff.sameError("revoke unknown", s -> s.grpc().lease().leaseRevoke(LeaseRevokeRequest.newBuilder().setID(0x2000_0fffL).build()));
        diff.sameOk("time to live of unknown",
                s -> s.grpc().lease().leaseTimeToLive(LeaseTimeToLiveRequest.newBuilder().setID(0x2000_0fffL).setKeys(true).build()));
        for (long id : new long[] {0x2000_0011L, 0x2000_0012L, 0x2000_0013L, 0x2000_0014L}) {
            diff.sameOk("revoke " + id, s -> s.grpc().lease().leaseRevoke(LeaseRevokeRequest.newBuilder().setID(id).build()));
        }
    }

    private static LeaseKeepAliveResponse keepAliveOnce(Differential.Side s, long id) throws Exception {
        CompletableFuture<LeaseKeepAliveResponse> first = new CompletableFuture<>();
        StreamObserver<LeaseKeepAliveRequest> requests = s.grpc().leaseAsync().leaseKeepAlive(new StreamObserver<>() {
            @Override
            public void onNext(LeaseKeepAliveResponse value) {
                first.complete(value);
            }

            @Override
            public void onError(Throwable t) {
                first.completeExceptionally(t);
            }

            @Override
            public void onCompleted() {
                first.completeExceptionally(new IllegalStateException("stream closed without a response"));
            }
        });
        requests.onNext(LeaseKeepAliveRequest.newBuilder().setID(id).build());
        try {
            return first.get(WAIT_MS, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof StatusRuntimeException sre ? sre : e;
        } finally {
            requests.onCompleted();
        }
    }

    @Test
    void keepAlive() {
        long id = 0x2000_0021L;
        diff.sameOk("grant", s -> s.grpc().lease().leaseGrant(LeaseGrantRequest.newBuilder().setID(id).setTTL(600).build()));
        diff.sameOk("keep alive", s -> keepAliveOnce(s, id));
        diff.sameOk("keep alive an unknown lease", s -> keepAliveOnce(s, 0x2000_0fffL));
        diff.sameOk("revoke", s -> s.grpc().lease().leaseRevoke(LeaseRevokeRequest.newBuilder().setID(id).build()));
        diff.sameOk("keep alive a revoked lease", s -> keepAliveOnce(s, id));
    }

    @Test
    void leaseExpiryDeletesItsKeys() throws Exception {
        long id = 0x2000_0031L;
        diff.sameOk("grant 2 s", s -> s.grpc().lease().leaseGrant(LeaseGrantRequest.newBuilder().setID(id).setTTL(2).build()));
        diff.sameOk("attach", s -> s.grpc().kv().put(PutRequest.newBuilder().setKey(k("ephemeral")).setLease(id).build()));
        for (Differential.Side s : List.of(diff.real, diff.ours)) {
            awaitGone(s, k("ephemeral"), 20_000);
        }
        diff.sameOk("key is gone", s -> s.grpc().kv().range(RangeRequest.newBuilder().setKey(k("ephemeral")).build()));
        diff.sameOk("lease is gone", s -> timeToLive(s, id, true));
        diff.sameError("revoke after expiry", s -> s.grpc().lease().leaseRevoke(LeaseRevokeRequest.newBuilder().setID(id).build()));
    }

    /** Polls until the key is deleted; a bounded wait, not a timing assertion. */
    private static void awaitGone(Differential.Side s, ByteString key, long timeoutMs) throws Exception {
        long count = Eventually.poll(Duration.ofMillis(timeoutMs), Duration.ofMillis(100),
                () -> s.grpc().kv().range(RangeRequest.newBuilder().setKey(key).setCountOnly(true).build()).getCount(),
                c -> c == 0);
        if (count > 0) {
            assertEquals(0, 1, s.name() + ": key with an expired 2 s lease still present after " + timeoutMs + " ms");
        }
    }
}
