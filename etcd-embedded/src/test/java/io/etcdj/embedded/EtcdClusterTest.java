package io.etcdj.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.options.GetOption;
import io.grpc.netty.GrpcSslContexts;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** What a Java developer does with the library: start clusters, talk to them with jetcd, break them. */
class EtcdClusterTest {
    private static final Duration LEADER = Duration.ofSeconds(15);

    @Test
    void oneMemberServesJetcdAndLeavesNothingBehind() throws Exception {
        Path dataDir;
        try (EtcdCluster etcd = EtcdCluster.builder().build().start(); Client client = client(etcd.clientEndpoints())) {
            dataDir = etcd.member(0).dataDir();
            client.getKVClient().put(bytes("greeting"), bytes("hello")).get(10, TimeUnit.SECONDS);
            List<KeyValue> kvs = client.getKVClient().get(bytes("greeting")).get(10, TimeUnit.SECONDS).getKvs();
            assertEquals("hello", kvs.get(0).getValue().toString(StandardCharsets.UTF_8));
            assertTrue(Files.isDirectory(dataDir.resolve("member/wal")), "the member wrote its WAL under its data dir");
        }
        assertFalse(Files.exists(dataDir), "the data dir is deleted on close");
    }

    @Test
    void threeMembersElectANewLeaderWhenTheLeaderIsKilledAndTheOldOneCatchesUp() throws Exception {
        try (EtcdCluster etcd = EtcdCluster.builder().members(3).build().start();
                Client client = client(etcd.clientEndpoints())) {
            EtcdMember leader = etcd.waitForLeader(LEADER);
            client.getKVClient().put(bytes("k"), bytes("v1")).get(10, TimeUnit.SECONDS);
            leader.kill();
            assertFalse(leader.isRunning());
            EtcdMember next = etcd.waitForLeader(LEADER);
            assertNotEquals(leader.name(), next.name(), "a surviving member leads");
            client.getKVClient().put(bytes("k"), bytes("v2")).get(20, TimeUnit.SECONDS);
            leader.start();
            try (Client old = client(List.of(leader.clientEndpoint()))) {
                // a linearizable read through the restarted member sees the write made while it was down
                assertEquals("v2", old.getKVClient().get(bytes("k")).get(20, TimeUnit.SECONDS).getKvs().get(0)
                        .getValue().toString(StandardCharsets.UTF_8));
            }
        }
    }

    @Test
    void twoClustersInOneJvmKeepTheirOwnData() throws Exception {
        try (EtcdCluster a = EtcdCluster.builder().name("cluster-a").build().start();
                EtcdCluster b = EtcdCluster.builder().name("cluster-b").build().start();
                Client ca = client(a.clientEndpoints()); Client cb = client(b.clientEndpoints())) {
            ca.getKVClient().put(bytes("only-in-a"), bytes("1")).get(10, TimeUnit.SECONDS);
            assertEquals(0, cb.getKVClient().get(bytes("only-in-a")).get(10, TimeUnit.SECONDS).getCount());
            assertEquals(1, ca.getKVClient().get(bytes("only-in-a")).get(10, TimeUnit.SECONDS).getCount());
            assertTrue(Collections.disjoint(a.clientEndpoints(), b.clientEndpoints()), "ports of their own");
        }
    }

    @Test
    void tlsClusterServesAClientThatTrustsItsCa() throws Exception {
        try (EtcdCluster etcd = EtcdCluster.builder().tls(true).build().start()) {
            assertEquals("https", etcd.member(0).clientEndpoint().getScheme());
            Path ca = etcd.clientTls().orElseThrow().trustedCaFile();
            // jetcd checks the server's name against its authority: the certificates name localhost and 127.0.0.1
            try (Client client = Client.builder().endpoints(etcd.clientEndpoints().toArray(URI[]::new)).authority("localhost")
                    .sslContext(GrpcSslContexts.forClient().trustManager(ca.toFile()).build()).build()) {
                client.getKVClient().put(bytes("secure"), bytes("yes")).get(10, TimeUnit.SECONDS);
                assertEquals(1, client.getKVClient().get(bytes("secure")).get(10, TimeUnit.SECONDS).getCount());
            }
        }
    }

    @Test
    void stoppedClusterRestartsOnItsData() throws Exception {
        try (EtcdCluster etcd = EtcdCluster.builder().members(3).build().start()) {
            try (Client client = client(etcd.clientEndpoints())) {
                client.getKVClient().put(bytes("durable"), bytes("yes")).get(10, TimeUnit.SECONDS);
            }
            etcd.restart();
            try (Client client = client(etcd.clientEndpoints())) {
                assertEquals(1, client.getKVClient().get(bytes("durable"), GetOption.newBuilder().build())
                        .get(20, TimeUnit.SECONDS).getCount());
            }
        }
    }

    @Test
    void inProcessMembersCannotBePausedAndSaySo() {
        try (EtcdCluster etcd = EtcdCluster.builder().build().start()) {
            UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class, () -> etcd.member(0).pause());
            assertTrue(e.getMessage().contains("Mode.CHILD_PROCESS"), e.getMessage());
        }
    }

    @Test
    void badFlagsAreRefusedWithEtcdsText() {
        EtcdCluster etcd = EtcdCluster.builder().additionalArgs("--heartbeat-interval=abc").build();
        try {
            EtcdClusterException e = assertThrows(EtcdClusterException.class, etcd::start);
            assertTrue(e.getMessage().contains("heartbeat-interval"), e.getMessage());
        } finally {
            etcd.close();
        }
    }

    static Client client(List<URI> endpoints) {
        return Client.builder().endpoints(endpoints.toArray(URI[]::new)).build();
    }

    static ByteSequence bytes(String s) {
        return ByteSequence.from(s, StandardCharsets.UTF_8);
    }
}
