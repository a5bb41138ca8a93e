package io.etcdj.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.Watch;
import io.etcd.jetcd.cluster.Member;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.kv.PutResponse;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.lease.LeaseGrantResponse;
import io.etcd.jetcd.lease.LeaseKeepAliveResponse;
import io.etcd.jetcd.lease.LeaseTimeToLiveResponse;
import io.etcd.jetcd.maintenance.StatusResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.LeaseOption;
import io.etcd.jetcd.options.PutOption;
import io.etcd.jetcd.options.WatchOption;
import io.etcd.jetcd.watch.WatchEvent;
import io.etcd.jetcd.watch.WatchResponse;
import io.etcdj.harness.EtcdClusterExtension;
import io.grpc.stub.StreamObserver;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * jetcd, the Java client of the etcd project, against our server. The member runs in this JVM
 * ({@link InProcessEtcd}); jetcd only sees its client port.
 */
class JetcdIT {
    private static final long TIMEOUT_S = 15;

    @RegisterExtension
    static final EtcdClusterExtension CLUSTER = EtcdClusterExtension.of(InProcessEtcd.withFlags(Map.of()));
    private static Client client;

    @BeforeAll
    static void connect() {
        // jetcd's own "ip" name resolver does not resolve with the gRPC version on this class path; the
        // standard dns scheme reaches the same address
        client = Client.builder().target(target()).build();
    }

    @AfterAll
    static void disconnect() {
        client.close();
    }

    private static String target() {
        return "dns:///" + CLUSTER.member(0).endpoint();
    }

    private static ByteSequence bs(String s) {
        return ByteSequence.from(s, StandardCharsets.UTF_8);
    }

    private static String str(ByteSequence b) {
        return b.toString(StandardCharsets.UTF_8);
    }

    @Test
    void kvPutGetDelete() throws Exception {
        KV kv = client.getKVClient();
        PutResponse first = kv.put(bs("jkv/a"), bs("1")).get(TIMEOUT_S, TimeUnit.SECONDS);
        assertFalse(first.hasPrevKv());
        PutResponse second = kv.put(bs("jkv/a"), bs("2"), PutOption.builder().withPrevKV().build()).get(TIMEOUT_S, TimeUnit.SECONDS);
        assertTrue(second.hasPrevKv());
        assertEquals("1", str(second.getPrevKv().getValue()));
        assertEquals(first.getHeader().getRevision() + 1, second.getHeader().getRevision());
        kv.put(bs("jkv/b"), bs("3")).get(TIMEOUT_S, TimeUnit.SECONDS);

        GetResponse one = kv.get(bs("jkv/a")).get(TIMEOUT_S, TimeUnit.SECONDS);
        KeyValue a = one.getKvs().get(0);
        assertEquals("2", str(a.getValue()));
        assertEquals(2, a.getVersion());
        assertEquals(first.getHeader().getRevision(), a.getCreateRevision());
        assertEquals(second.getHeader().getRevision(), a.getModRevision());

        GetResponse all = kv.get(bs("jkv/"), GetOption.builder().isPrefix(true).withSortOrder(GetOption.SortOrder.DESCEND).build())
                .get(TIMEOUT_S, TimeUnit.SECONDS);
        assertEquals(List.of("jkv/b", "jkv/a"), all.getKvs().stream().map(kvp -> str(kvp.getKey())).toList());
        GetResponse old = kv.get(bs("jkv/a"), GetOption.builder().withRevision(first.getHeader().getRevision()).build())
                .get(TIMEOUT_S, TimeUnit.SECONDS);
        assertEquals("1", str(old.getKvs().get(0).getValue()));
        assertEquals(2, kv.get(bs("jkv/"), GetOption.builder().isPrefix(true).withCountOnly(true).build())
                .get(TIMEOUT_S, TimeUnit.SECONDS).getCount());

        assertEquals(2, kv.delete(bs("jkv/"), DeleteOption.builder().isPrefix(true).withPrevKV(true).build())
                .get(TIMEOUT_S, TimeUnit.SECONDS).getPrevKvs().size());
        assertEquals(0, kv.get(bs("jkv/"), GetOption.builder().isPrefix(true).build()).get(TIMEOUT_S, TimeUnit.SECONDS).getCount());
    }

    @Test
    void txn() throws Exception {
        KV kv = client.getKVClient();
        kv.put(bs("jtxn/k"), bs("v")).get(TIMEOUT_S, TimeUnit.SECONDS);
        TxnResponse hit = kv.txn()
                .If(new Cmp(bs("jtxn/k"), Cmp.Op.EQUAL, CmpTarget.value(bs("v"))))
                .Then(Op.put(bs("jtxn/k"), bs("w"), PutOption.DEFAULT), Op.get(bs("jtxn/k"), GetOption.DEFAULT))
                .Else(Op.delete(bs("jtxn/k"), DeleteOption.DEFAULT))
                .commit().get(TIMEOUT_S, TimeUnit.SECONDS);
        assertTrue(hit.isSucceeded());
        assertEquals("w", str(hit.getGetResponses().get(0).getKvs().get(0).getValue()));
        assertEquals(1, hit.getPutResponses().size());

        TxnResponse miss = kv.txn()
                .If(new Cmp(bs("jtxn/k"), Cmp.Op.LESS, CmpTarget.version(2)))
                .Then(Op.put(bs("jtxn/k"), bs("never"), PutOption.DEFAULT))
                .Else(Op.delete(bs("jtxn/k"), DeleteOption.DEFAULT))
                .commit().get(TIMEOUT_S, TimeUnit.SECONDS);
        assertFalse(miss.isSucceeded());
        assertEquals(1, miss.getDeleteResponses().get(0).getDeleted());
    }

    @Test
    void watchSeesHistoryAndLiveEvents() throws Exception {
        KV kv = client.getKVClient();
        long start = kv.put(bs("jwatch/a"), bs("1")).get(TIMEOUT_S, TimeUnit.SECONDS).getHeader().getRevision();
        kv.delete(bs("jwatch/a")).get(TIMEOUT_S, TimeUnit.SECONDS);
        BlockingQueue<WatchEvent> events = new LinkedBlockingQueue<>();
        WatchOption option = WatchOption.builder().isPrefix(true).withRevision(start).withPrevKV(true).build();
        try (Watch.Watcher watcher = client.getWatchClient().watch(bs("jwatch/"), option,
                (WatchResponse r) -> events.addAll(r.getEvents()))) {
            WatchEvent put = next(events);
            assertEquals(WatchEvent.EventType.PUT, put.getEventType());
            assertEquals("1", str(put.getKeyValue().getValue()));
            WatchEvent delete = next(events);
            assertEquals(WatchEvent.EventType.DELETE, delete.getEventType());
            assertEquals("1", str(delete.getPrevKV().getValue()));

            kv.put(bs("jwatch/b"), bs("live")).get(TIMEOUT_S, TimeUnit.SECONDS);
            WatchEvent live = next(events);
            assertEquals("jwatch/b", str(live.getKeyValue().getKey()));
            assertEquals("live", str(live.getKeyValue().getValue()));
        }
    }

    private static WatchEvent next(BlockingQueue<WatchEvent> events) throws InterruptedException {
        WatchEvent e = events.poll(TIMEOUT_S, TimeUnit.SECONDS);
        assertNotEquals(null, e, "no watch event within " + TIMEOUT_S + " s");
        return e;
    }

    @Test
    void leaseGrantKeepAliveRevoke() throws Exception {
        LeaseGrantResponse grant = client.getLeaseClient().grant(600).get(TIMEOUT_S, TimeUnit.SECONDS);
        assertEquals(600, grant.getTTL());
        long id = grant.getID();
        client.getKVClient().put(bs("jlease/k"), bs("v"), PutOption.builder().withLeaseId(id).build()).get(TIMEOUT_S, TimeUnit.SECONDS);

        assertEquals(600, client.getLeaseClient().keepAliveOnce(id).get(TIMEOUT_S, TimeUnit.SECONDS).getTTL());
        BlockingQueue<LeaseKeepAliveResponse> keepAlives = new LinkedBlockingQueue<>();
        try (var ignored = client.getLeaseClient().keepAlive(id, new StreamObserver<>() {
            @Override
            public void onNext(LeaseKeepAliveResponse value) {
                keepAlives.add(value);
            }

            @Override
            public void onError(Throwable t) {
            }

            @Override
            public void onCompleted() {
            }
        })) {
            LeaseKeepAliveResponse first = keepAlives.poll(TIMEOUT_S, TimeUnit.SECONDS);
            assertNotEquals(null, first, "no keep-alive response");
            assertEquals(id, first.getID());
        }

        LeaseTimeToLiveResponse ttl = client.getLeaseClient().timeToLive(id, LeaseOption.builder().withAttachedKeys().build())
                .get(TIMEOUT_S, TimeUnit.SECONDS);
        assertEquals(600, ttl.getGrantedTTL());
        assertEquals(List.of("jlease/k"), ttl.getKeys().stream().map(JetcdIT::str).toList());

        client.getLeaseClient().revoke(id).get(TIMEOUT_S, TimeUnit.SECONDS);
        assertEquals(0, client.getKVClient().get(bs("jlease/k")).get(TIMEOUT_S, TimeUnit.SECONDS).getCount());
    }

    @Test
    void clusterMemberListAndMaintenanceStatus() throws Exception {
        List<Member> members = client.getClusterClient().listMember().get(TIMEOUT_S, TimeUnit.SECONDS).getMembers();
        assertEquals(1, members.size());
        assertEquals("it", members.get(0).getName());
        assertEquals(List.of(URI.create(CLUSTER.member(0).clientUrl())), members.get(0).getClientURIs());

        StatusResponse status = client.getMaintenanceClient().statusMember(target())
                .get(TIMEOUT_S, TimeUnit.SECONDS);
        assertEquals(members.get(0).getId(), status.getLeader());
        assertTrue(status.getVersion().startsWith("3."), status.getVersion());
        assertTrue(status.getDbSize() > 0);
    }
}
