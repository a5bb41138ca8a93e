package io.etcd.jetcd.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.kv.GetResponse;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Written as a jetcd test is: the extension on a static field, the client through cluster://NAME. */
class EtcdClusterExtensionTest {
    @RegisterExtension
    static final EtcdClusterExtension cluster = EtcdClusterExtension.builder()
            .withNodes(3)
            .withClusterName("extension-test")
            .build();

    @Test
    void clientReachesTheClusterByName() throws Exception {
        try (Client client = Client.builder().target("cluster://" + cluster.clusterName()).build()) {
            ByteSequence key = ByteSequence.from("by-name", StandardCharsets.UTF_8);
            client.getKVClient().put(key, ByteSequence.from("yes", StandardCharsets.UTF_8)).get(10, TimeUnit.SECONDS);
            GetResponse r = client.getKVClient().get(key).get(10, TimeUnit.SECONDS);
            assertEquals("yes", r.getKvs().get(0).getValue().toString(StandardCharsets.UTF_8));
        }
        assertEquals(3, cluster.clientEndpoints().size());
        assertTrue(cluster.peerEndpoints().stream().allMatch(u -> u.getHost().equals("127.0.0.1")));
        assertEquals(cluster.cluster(), EtcdClusterExtension.cluster("extension-test"));
    }

    @Test
    void dataSurvivesARestartOfTheWholeCluster() throws Exception {
        ByteSequence key = ByteSequence.from("kept", StandardCharsets.UTF_8);
        try (Client client = Client.builder().endpoints(cluster.clientEndpoints().toArray(URI[]::new)).build()) {
            client.getKVClient().put(key, ByteSequence.from("1", StandardCharsets.UTF_8)).get(10, TimeUnit.SECONDS);
        }
        cluster.restart(100, TimeUnit.MILLISECONDS);
        try (Client client = Client.builder().endpoints(cluster.clientEndpoints().toArray(URI[]::new)).build()) {
            assertEquals(1, client.getKVClient().get(key).get(20, TimeUnit.SECONDS).getCount());
        }
    }
}
