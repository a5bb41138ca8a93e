package io.etcdj.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.harness.EtcdProcess;
import io.etcdj.harness.FreePorts;
import io.etcdj.harness.ProcessCluster;
import io.etcdj.harness.ServerCommand;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Bootstrap by DNS SRV (the clustering guide's procedure): three of our members started with
 * only --discovery-srv find each other through the _etcd-server._tcp records of a test DNS
 * server on 127.0.0.1, and the gateway finds them through _etcd-client._tcp. etcd 3.4 reads
 * the machine's resolver only, so it cannot join this test; its error texts are compared where
 * no DNS answer is needed.
 */
class DnsSrvBootstrapIT {
    private static final String DOMAIN = "example.test";

    @Test
    void membersAndTheGatewayFindTheClusterThroughSrvRecords() throws Exception {
        try (TestDnsServer dns = new TestDnsServer();
             ProcessCluster cluster = ProcessCluster.start(EtcdProcess.Binary.OURS, 3, List.of(dns.jvmOption()), ms -> {
                 for (EtcdProcess m : ms) {
                     // "localhost." resolves on every machine, so members can also dial the URLs built from it
                     dns.addSrv("_etcd-server._tcp." + DOMAIN, "localhost.", m.peerPort());
                     dns.addSrv("_etcd-client._tcp." + DOMAIN, "localhost.",
                             Integer.parseInt(m.endpoint().substring(m.endpoint().lastIndexOf(':') + 1)));
                 }
             }, "--discovery-srv=" + DOMAIN)) {
            Etcdctl ctl = new Etcdctl(cluster.member(0).endpoint());
            String members = ctl.run("member", "list").ok().stdout();
            assertEquals(3, members.lines().count(), members);
            for (EtcdProcess m : cluster.members()) {
                assertTrue(members.contains("http://localhost:" + m.peerPort()), members);
                assertTrue(members.contains(", started, " + m.name() + ", "), members);
            }
            assertEquals("OK\n", ctl.run("put", "srv", "yes").ok().stdout());
            assertEquals("yes\n", new Etcdctl(cluster.member(2).endpoint()).run("get", "srv", "--print-value-only")
                    .ok().stdout());

            try (ProxyProcess gateway = ProxyProcess.start(EtcdProcess.Binary.OURS, "gateway",
                    "ready to proxy client requests", List.of(dns.jvmOption()),
                    "--discovery-srv=" + DOMAIN, "--insecure-discovery")) {
                assertTrue(gateway.log().contains("\"msg\":\"discovered cluster from SRV\",\"srv-server\":\"" + DOMAIN + "\""),
                        gateway.log());
                assertEquals("yes\n", new Etcdctl(gateway.endpoint()).run("get", "srv", "--print-value-only").ok().stdout());
            }
        }
    }

    /** A domain without records: the member does not start, with etcd's error. */
    @Test
    void noRecordsIsABootstrapError() throws Exception {
        try (TestDnsServer dns = new TestDnsServer()) {
            List<String> cmd = new ArrayList<>(ServerCommand.ours().prefix(List.of(dns.jvmOption())));
            cmd.addAll(List.of("--discovery-srv=" + DOMAIN, "--initial-advertise-peer-urls=http://127.0.0.1:1",
                    "--listen-peer-urls=http://127.0.0.1:" + FreePorts.pick(),
                    "--listen-client-urls=http://127.0.0.1:" + FreePorts.pick(),
                    "--advertise-client-urls=http://127.0.0.1:1"));
            String out = TcpGatewayIT.run(cmd);
            assertTrue(out.startsWith("exit 1\n"), out);
            assertTrue(out.contains("error setting up initial cluster: error querying DNS SRV records for _etcd-server-ssl "
                    + "lookup _etcd-server-ssl._tcp." + DOMAIN), out);
        }
    }

    /** --discovery-srv with an explicit --initial-cluster: refused before anything starts, as etcd 3.4 does. */
    @ParameterizedTest
    @EnumSource(EtcdProcess.Binary.class)
    void discoveryAndInitialClusterConflict(EtcdProcess.Binary binary) throws Exception {
        List<String> cmd = new ArrayList<>(binary == EtcdProcess.Binary.OURS ? ServerCommand.ours().prefix(List.of())
                : List.of(EtcdProcess.REAL_ETCD.toString()));
        cmd.addAll(List.of("--discovery-srv=" + DOMAIN, "--initial-cluster=a=http://127.0.0.1:1"));
        String out = TcpGatewayIT.run(cmd);
        assertTrue(out.startsWith("exit 1\n"), out);
        assertTrue(out.contains("error verifying flags, multiple discovery or bootstrap flags are set. Choose one of "
                + "\"initial-cluster\", \"discovery\" or \"discovery-srv\". See 'etcd --help'."), out);
    }
}
