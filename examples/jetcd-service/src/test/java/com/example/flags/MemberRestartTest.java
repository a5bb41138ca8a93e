package com.example.flags;

import static com.example.flags.Bytes.of;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.etcd.jetcd.Client;
import io.etcd.jetcd.Watch;
import io.etcd.jetcd.options.WatchOption;
import io.etcd.jetcd.watch.WatchEvent;
import io.etcdj.embedded.EtcdCluster;
import io.etcdj.embedded.EtcdMember;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A member restarted in the middle of a test: the client and a watch carry on (the builder API, no extension). */
class MemberRestartTest {
    @Test
    void writesAndAWatchCarryOnWhileTheMemberTheyUseRestarts() throws Exception {
        try (EtcdCluster etcd = EtcdCluster.builder().members(3).build().start();
                Client client = Client.builder().endpoints(etcd.clientEndpoints().toArray(URI[]::new)).build()) {
            BlockingQueue<WatchEvent> events = new LinkedBlockingQueue<>();
            long from = client.getKVClient().get(of("restart/k")).get(10, TimeUnit.SECONDS).getHeader().getRevision() + 1;
            try (Watch.Watcher w = client.getWatchClient().watch(of("restart/k"),
                    WatchOption.newBuilder().withRevision(from).build(), r -> events.addAll(r.getEvents()))) {
                client.getKVClient().put(of("restart/k"), of("before")).get(10, TimeUnit.SECONDS);
                assertEquals("before", Bytes.text(events.poll(10, TimeUnit.SECONDS).getKeyValue().getValue()));
                for (EtcdMember member : etcd.members()) {
                    member.restart();
                    etcd.waitForLeader(Duration.ofSeconds(20));
                    client.getKVClient().put(of("restart/k"), of("after-" + member.name())).get(30, TimeUnit.SECONDS);
                }
                List<String> seen = new ArrayList<>();
                for (int i = 0; i < etcd.members().size(); i++) {
                    seen.add(Bytes.text(events.poll(30, TimeUnit.SECONDS).getKeyValue().getValue()));
                }
                assertEquals(etcd.members().stream().map(m -> "after-" + m.name()).toList(), seen,
                        "the watch delivered every write, in order, across the restarts");
            }
        }
    }
}
