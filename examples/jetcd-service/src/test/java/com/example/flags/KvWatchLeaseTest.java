package com.example.flags;

import static com.example.flags.Bytes.of;
import static com.example.flags.Bytes.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcd.jetcd.Client;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.Watch;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.lease.LeaseKeepAliveResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.LeaseOption;
import io.etcd.jetcd.options.PutOption;
import io.etcd.jetcd.options.WatchOption;
import io.etcd.jetcd.support.CloseableClient;
import io.etcd.jetcd.watch.WatchEvent;
import io.etcdj.embedded.EtcdExtension;
import io.grpc.stub.StreamObserver;
import java.net.URI;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** KV, watch and lease scenarios of jetcd's own tests, on the builder API's JUnit extension. */
class KvWatchLeaseTest {
    @RegisterExtension
    static final EtcdExtension etcd = EtcdExtension.builder().members(1).build();

    private Client client;

    @BeforeEach
    void connect() {
        client = Client.builder().endpoints(etcd.clientEndpoints().toArray(URI[]::new)).build();
    }

    @AfterEach
    void disconnect() {
        client.close();
    }

    @Test
    void putGetDeleteAndRanges() throws Exception {
        KV kv = client.getKVClient();
        long rev = kv.put(of("kv/a"), of("1")).get().getHeader().getRevision();
        kv.put(of("kv/b"), of("2")).get();
        kv.put(of("kv/a"), of("3")).get();
        var all = kv.get(of("kv/"), GetOption.newBuilder().isPrefix(true).build()).get();
        assertEquals(2, all.getCount());
        assertEquals("3", text(all.getKvs().get(0).getValue()));
        assertEquals(2, all.getKvs().get(0).getVersion(), "version counts the puts of the key");
        var old = kv.get(of("kv/a"), GetOption.newBuilder().withRevision(rev).build()).get();
        assertEquals("1", text(old.getKvs().get(0).getValue()), "reads at an earlier revision see the old value");
        var deleted = kv.delete(of("kv/"), DeleteOption.newBuilder().isPrefix(true).withPrevKV(true).build()).get();
        assertEquals(2, deleted.getDeleted());
        assertEquals(2, deleted.getPrevKvs().size());
        assertEquals(0, kv.get(of("kv/a")).get().getCount());
    }

    @Test
    void txnTakesTheBranchItsCompareChooses() throws Exception {
        KV kv = client.getKVClient();
        TxnResponse created = kv.txn().If(new Cmp(of("txn/k"), Cmp.Op.EQUAL, CmpTarget.version(0)))
                .Then(Op.put(of("txn/k"), of("created"), PutOption.DEFAULT))
                .Else(Op.get(of("txn/k"), GetOption.DEFAULT)).commit().get();
        assertTrue(created.isSucceeded());
        TxnResponse existing = kv.txn().If(new Cmp(of("txn/k"), Cmp.Op.EQUAL, CmpTarget.version(0)))
                .Then(Op.put(of("txn/k"), of("again"), PutOption.DEFAULT))
                .Else(Op.get(of("txn/k"), GetOption.DEFAULT)).commit().get();
        assertFalse(existing.isSucceeded());
        assertEquals("created", text(existing.getGetResponses().get(0).getKvs().get(0).getValue()));
    }

    @Test
    void watchDeliversEveryChangeInOrderWithPreviousValues() throws Exception {
        BlockingQueue<WatchEvent> events = new LinkedBlockingQueue<>();
        KV kv = client.getKVClient();
        // watch() returns before the server has created the watch: start it from a known revision
        long from = kv.get(of("w/")).get().getHeader().getRevision() + 1;
        try (Watch.Watcher w = client.getWatchClient().watch(of("w/"),
                WatchOption.newBuilder().isPrefix(true).withPrevKV(true).withRevision(from).build(),
                r -> events.addAll(r.getEvents()))) {
            kv.put(of("w/x"), of("1")).get();
            kv.put(of("w/x"), of("2")).get();
            kv.delete(of("w/x")).get();
            WatchEvent put1 = events.poll(10, TimeUnit.SECONDS);
            WatchEvent put2 = events.poll(10, TimeUnit.SECONDS);
            WatchEvent del = events.poll(10, TimeUnit.SECONDS);
            assertEquals(List.of(WatchEvent.EventType.PUT, WatchEvent.EventType.PUT, WatchEvent.EventType.DELETE),
                    List.of(put1.getEventType(), put2.getEventType(), del.getEventType()));
            assertEquals("1", text(put2.getPrevKV().getValue()));
            assertEquals("2", text(del.getPrevKV().getValue()));
        }
    }

    @Test
    void keepAliveHoldsALeaseAndExpiryRemovesItsKeys() throws Exception {
        long kept = client.getLeaseClient().grant(2).get().getID();
        long dropped = client.getLeaseClient().grant(2).get().getID();
        client.getKVClient().put(of("lease/kept"), of("1"), PutOption.newBuilder().withLeaseId(kept).build()).get();
        client.getKVClient().put(of("lease/dropped"), of("1"), PutOption.newBuilder().withLeaseId(dropped).build()).get();
        try (CloseableClient keepAlive = client.getLeaseClient().keepAlive(kept, new StreamObserver<LeaseKeepAliveResponse>() {
            @Override
            public void onNext(LeaseKeepAliveResponse value) {
            }

            @Override
            public void onError(Throwable t) {
            }

            @Override
            public void onCompleted() {
            }
        })) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (client.getKVClient().get(of("lease/dropped")).get().getCount() > 0 && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertEquals(0, client.getKVClient().get(of("lease/dropped")).get().getCount(), "expired with its lease");
            assertEquals(1, client.getKVClient().get(of("lease/kept")).get().getCount(), "kept alive");
            var ttl = client.getLeaseClient().timeToLive(kept, LeaseOption.newBuilder().withAttachedKeys().build()).get();
            assertTrue(ttl.getTTL() > 0, "remaining TTL " + ttl.getTTL());
            assertEquals(List.of("lease/kept"), ttl.getKeys().stream().map(Bytes::text).toList());
        }
    }
}
