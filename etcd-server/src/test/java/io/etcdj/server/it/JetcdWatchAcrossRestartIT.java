package io.etcdj.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.Watch;
import io.etcd.jetcd.options.WatchOption;
import io.etcd.jetcd.watch.WatchEvent;
import io.etcdj.harness.EtcdProcess;
import io.etcdj.harness.ProcessCluster;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Watches opened by jetcd before every member of a three-member cluster of processes is stopped
 * and started again deliver what is written after the restart (reported: nothing within 30 s),
 * for the real etcd 3.4 and for ours.
 */
class JetcdWatchAcrossRestartIT {
    private static ByteSequence bytes(String s) {
        return ByteSequence.from(s, StandardCharsets.UTF_8);
    }

    private static String deliveredAfterRestart(EtcdProcess.Binary binary) throws Exception {
        try (ProcessCluster c = ProcessCluster.start(binary, 3);
                Client client = Client.builder().endpoints(c.members().stream().map(m -> "http://" + m.endpoint())
                        .toArray(String[]::new)).build()) {
            BlockingQueue<WatchEvent> fromRevision = new LinkedBlockingQueue<>();
            BlockingQueue<WatchEvent> fromNow = new LinkedBlockingQueue<>();
            long next = client.getKVClient().put(bytes("restart/k"), bytes("before")).get(20, TimeUnit.SECONDS)
                    .getHeader().getRevision() + 1;
            List<String> errors = Collections.synchronizedList(new ArrayList<>());
            try (Watch.Watcher a = client.getWatchClient().watch(bytes("restart/k"),
                    WatchOption.newBuilder().withRevision(next).build(),
                    Watch.listener(r -> fromRevision.addAll(r.getEvents()), t -> errors.add("a: " + t)));
                    Watch.Watcher b = client.getWatchClient().watch(bytes("restart/k"),
                            Watch.listener(r -> fromNow.addAll(r.getEvents()), t -> errors.add("b: " + t)))) {
                // jetcd gives no signal that a watch is created: the second one (no start revision)
                // sees only writes after its creation; its tests wait a moment the same way
                Thread.sleep(1000);
                client.getKVClient().put(bytes("restart/k"), bytes("first")).get(20, TimeUnit.SECONDS);
                assertNotNull(fromRevision.poll(20, TimeUnit.SECONDS), binary + ": the watch works before the restart");
                assertNotNull(fromNow.poll(20, TimeUnit.SECONDS));

                for (EtcdProcess m : c.members()) {
                    m.stop();
                }
                for (EtcdProcess m : c.members()) {
                    m.launch();
                }
                for (EtcdProcess m : c.members()) {
                    m.awaitStarted();
                }
                client.getKVClient().put(bytes("restart/k"), bytes("after")).get(30, TimeUnit.SECONDS);
                WatchEvent a1 = fromRevision.poll(30, TimeUnit.SECONDS);
                WatchEvent b1 = fromNow.poll(30, TimeUnit.SECONDS);
                String seen = (a1 == null ? "nothing" : a1.getKeyValue().getValue().toString(StandardCharsets.UTF_8)) + ", "
                        + (b1 == null ? "nothing" : b1.getKeyValue().getValue().toString(StandardCharsets.UTF_8));
                System.out.println(binary + " after the restart: " + seen + "; the watches' errors: " + errors);
                return seen;
            }
        }
    }

    @Test
    void watchesResumeAfterAFullClusterRestart() throws Exception {
        for (EtcdProcess.Binary binary : List.of(EtcdProcess.Binary.REAL_ETCD, EtcdProcess.Binary.OURS)) {
            assertEquals("after, after", deliveredAfterRestart(binary), binary + ": both watches deliver the write after the restart");
        }
    }
}
