package io.etcdj.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.harness.EtcdProcess;
import io.etcdj.harness.ProcessCluster;
import io.etcdj.harness.ServerCommand;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Bootstrap by discovery URL (the clustering guide's "custom etcd discovery service"): an etcd
 * 3.4 with the v2 API is the discovery service; a discovery URL with size 3 bootstraps three
 * members (ours, then etcd 3.4's) started with only --discovery; a fourth member gets
 * "discovery: cluster is full"; a URL without a size does not bootstrap. The members reach the
 * service through --discovery-proxy only: the URL's host name is one only the test's HTTP proxy
 * knows.
 */
class DiscoveryServiceIT {
    @ParameterizedTest
    @EnumSource(EtcdProcess.Binary.class)
    void threeMembersBootstrapFromADiscoveryUrl(EtcdProcess.Binary binary) throws Exception {
        try (EtcdProcess service = EtcdProcess.realEtcd("--enable-v2=true")) {
            service.start();
            String path = "/v2/keys/discovery/" + binary.name().toLowerCase() + "-token";
            HttpResponse<String> size = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://" + service.endpoint() + path + "/_config/size"))
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .PUT(HttpRequest.BodyPublishers.ofString("value=3")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(201, size.statusCode(), size.body());

            String url = "http://discovery.invalid:" + service.endpoint().substring(service.endpoint().indexOf(':') + 1) + path;
            try (HttpForwardProxy proxy = new HttpForwardProxy();
                 ProcessCluster cluster = ProcessCluster.start(binary, 3, "--discovery=" + url,
                         "--discovery-proxy=" + proxy.address())) {
                Etcdctl ctl = new Etcdctl(cluster.member(0).endpoint());
                String members = ctl.run("member", "list").ok().stdout();
                assertEquals(3, members.lines().count(), members);
                for (EtcdProcess m : cluster.members()) {
                    assertTrue(members.contains(", started, " + m.name() + ", " + m.peerUrl() + ", "), members);
                }
                assertEquals("OK\n", ctl.run("put", "discovered", "yes").ok().stdout());
                assertEquals("yes\n", new Etcdctl(cluster.member(1).endpoint()).run("get", "discovered",
                        "--print-value-only").ok().stdout());
                String registered = new Etcdctl(service.endpoint()).run("get", "--prefix", "").ok().stdout();
                assertEquals("", registered, "v2 keys are not in the v3 keyspace");

                assertTrue(proxy.requests().stream().anyMatch(r -> r.contains(" " + url + "/")), proxy.requests().toString());

                try (EtcdProcess late = EtcdProcess.ours("--discovery=" + url, "--discovery-fallback=exit")) {
                    String out = runToExit(binary, late, url, proxy);
                    assertTrue(out.contains("failed to join discovery cluster (discovery: cluster is full)"), out);
                }
                String noSize = url + "-nosize";
                try (EtcdProcess alone = EtcdProcess.ours()) {
                    String out = runToExit(binary, alone, noSize, proxy);
                    assertTrue(out.startsWith("exit 1\n") && out.contains("failed to join discovery cluster ("), out);
                }
            }
        }
    }

    /** Runs a member of {@code binary} with --discovery=url on fresh ports until it exits. */
    private static String runToExit(EtcdProcess.Binary binary, EtcdProcess ports, String url, HttpForwardProxy proxy)
            throws Exception {
        List<String> cmd = new ArrayList<>(binary == EtcdProcess.Binary.OURS ? ServerCommand.ours().prefix(List.of())
                : List.of(EtcdProcess.REAL_ETCD.toString(), "--logger=zap"));
        String peer = "http://127.0.0.1:" + ports.peerPort();
        cmd.addAll(List.of("--name=late", "--data-dir=" + ports.dataDir(), "--discovery=" + url, "--discovery-fallback=exit",
                "--discovery-proxy=" + proxy.address(),
                "--listen-peer-urls=" + peer, "--initial-advertise-peer-urls=" + peer,
                "--listen-client-urls=http://" + ports.endpoint(), "--advertise-client-urls=http://" + ports.endpoint()));
        return TcpGatewayIT.run(cmd);
    }
}
