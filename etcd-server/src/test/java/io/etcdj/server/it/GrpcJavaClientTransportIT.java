package io.etcdj.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.Watch;
import io.etcd.jetcd.options.WatchOption;
import io.etcd.jetcd.watch.WatchEvent;
import io.etcdj.harness.EtcdProcess;
import io.etcdj.harness.Resources;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The way back to grpc-java's server on the client port ({@code -Detcdj.clientTransport=grpc-java},
 * docs/operations.md): a member started with it serves jetcd's reads, writes, watches and leases.
 * Every other test runs the default transport, so this is the one that keeps the way back working.
 */
class GrpcJavaClientTransportIT {
    @RegisterExtension
    final Resources res = new Resources();

    private static ByteSequence bytes(String s) {
        return ByteSequence.from(s, StandardCharsets.UTF_8);
    }

    @Test
    void aMemberOnGrpcJavasServerServesJetcd() throws Exception {
        EtcdProcess member = res.track(EtcdProcess.ours());
        member.jvmOptions(List.of("-Detcdj.clientTransport=grpc-java"));
        member.start();
        try (Client client = Client.builder().endpoints("http://" + member.endpoint()).build()) {
            long rev = client.getKVClient().put(bytes("way-back/k"), bytes("v1")).get(20, TimeUnit.SECONDS)
                    .getHeader().getRevision();
            assertEquals("v1", client.getKVClient().get(bytes("way-back/k")).get(20, TimeUnit.SECONDS)
                    .getKvs().get(0).getValue().toString(StandardCharsets.UTF_8));
            BlockingQueue<WatchEvent> events = new LinkedBlockingQueue<>();
            try (Watch.Watcher w = client.getWatchClient().watch(bytes("way-back/k"),
                    WatchOption.newBuilder().withRevision(rev).build(), Watch.listener(r -> events.addAll(r.getEvents())))) {
                client.getKVClient().put(bytes("way-back/k"), bytes("v2")).get(20, TimeUnit.SECONDS);
                WatchEvent first = events.poll(20, TimeUnit.SECONDS);
                WatchEvent second = events.poll(20, TimeUnit.SECONDS);
                assertNotNull(second, "the watch from the first write's revision sees both writes");
                assertEquals("v1", first.getKeyValue().getValue().toString(StandardCharsets.UTF_8));
                assertEquals("v2", second.getKeyValue().getValue().toString(StandardCharsets.UTF_8));
            }
            long lease = client.getLeaseClient().grant(60).get(20, TimeUnit.SECONDS).getID();
            assertTrue(client.getLeaseClient().keepAliveOnce(lease).get(20, TimeUnit.SECONDS).getTTL() > 0,
                    "the lease is kept alive");
        }
    }
}
