package io.etcdj.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.Watch;
import io.etcdj.harness.EtcdProcess;
import io.etcdj.harness.ProcessCluster;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Many watches opened at once from one jetcd client (each jetcd watcher is a stream of its own),
 * on a three-member cluster: every watch is created and sees its key's write within jetcd's test
 * time-outs (reported: concurrent watches timed out on ours). The real etcd 3.4 and ours.
 */
class JetcdManyWatchesIT {
    private static final int WATCHES = 200;

    private static ByteSequence bytes(String s) {
        return ByteSequence.from(s, StandardCharsets.UTF_8);
    }

    private static long delivered(EtcdProcess.Binary binary) throws Exception {
        try (ProcessCluster c = ProcessCluster.start(binary, 3);
                Client client = Client.builder().endpoints(c.members().stream().map(m -> "http://" + m.endpoint())
                        .toArray(String[]::new)).build()) {
            CountDownLatch events = new CountDownLatch(WATCHES);
            List<Watch.Watcher> watchers = new ArrayList<>();
            try {
                List<CompletableFuture<Void>> opened = new ArrayList<>();
                for (int i = 0; i < WATCHES; i++) {
                    String key = "many/" + i;
                    opened.add(CompletableFuture.runAsync(() -> {
                        synchronized (watchers) {
                            watchers.add(client.getWatchClient().watch(bytes(key), r -> r.getEvents().forEach(e -> events.countDown())));
                        }
                    }));
                }
                CompletableFuture.allOf(opened.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
                // jetcd gives no signal that a watch is created; its tests wait a moment the same way
                Thread.sleep(2000);
                List<CompletableFuture<?>> puts = new ArrayList<>();
                for (int i = 0; i < WATCHES; i++) {
                    puts.add(client.getKVClient().put(bytes("many/" + i), bytes("v")));
                }
                CompletableFuture.allOf(puts.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
                events.await(10, TimeUnit.SECONDS);
                return WATCHES - events.getCount();
            } finally {
                synchronized (watchers) {
                    watchers.forEach(Watch.Watcher::close);
                }
            }
        }
    }

    @Test
    void manyWatchesFromOneClientAllDeliver() throws Exception {
        for (EtcdProcess.Binary binary : List.of(EtcdProcess.Binary.REAL_ETCD, EtcdProcess.Binary.OURS)) {
            assertEquals(WATCHES, delivered(binary), binary + ": events delivered within 10 s of the writes");
        }
    }
}
