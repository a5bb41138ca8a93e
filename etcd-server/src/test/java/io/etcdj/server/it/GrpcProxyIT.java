package io.etcdj.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.harness.EtcdProcess;
import io.etcdj.harness.Eventually;
import io.etcdj.harness.ProcessCluster;
import io.etcdj.harness.ServerCommand;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code etcd grpc-proxy start} in front of a cluster, ours and etcd 3.4's, used only through the
 * real etcdctl: keys live under the --namespace upstream but not in what clients see; two
 * watchers of the same key share one watcher on the member (its watcher gauge rises by one);
 * a serializable read after a write through the proxy sees the write; leases, locks and
 * transactions work; with --resolver-prefix the member list names the proxy.
 */
class GrpcProxyIT {
    private static final String READY = "started gRPC proxy";
    private static final Pattern WATCHERS = Pattern.compile("(?m)^etcd_debugging_mvcc_watcher_total (\\d+)");
    private static final Pattern REVISION = Pattern.compile("\"revision\":(\\d+)");

    @ParameterizedTest
    @EnumSource(EtcdProcess.Binary.class)
    void etcdctlThroughTheProxy(EtcdProcess.Binary binary) throws Exception {
        try (ProcessCluster cluster = ProcessCluster.start(binary, 1);
             ProxyProcess proxy = ProxyProcess.start(binary, "grpc-proxy", READY, List.of(),
                     "--endpoints=" + cluster.endpoints(), "--namespace=ns/",
                     "--advertise-client-url=" + ProxyProcess.LISTEN,
                     "--resolver-prefix=___grpc_proxy_endpoint", "--resolver-ttl=60")) {
            EtcdProcess member = cluster.member(0);
            Etcdctl ctl = new Etcdctl(proxy.endpoint());
            Etcdctl direct = new Etcdctl(member.endpoint());

            // namespace: prefixed upstream, plain through the proxy
            assertEquals("OK\n", ctl.run("put", "a", "1").ok().stdout());
            assertEquals("a\n1\n", ctl.run("get", "a").ok().stdout());
            assertEquals("ns/a\n1\n", direct.run("get", "ns/a").ok().stdout());
            assertEquals("", direct.run("get", "a").ok().stdout());
            assertEquals("a\n", ctl.run("get", "", "--prefix", "--keys-only").ok().stdout().replaceAll("\n+", "\n")
                    .replace("___grpc_proxy_endpoint/" + proxy.endpoint() + "\n", ""));

            // two watchers of one key through the proxy: one watcher on the member
            int before = upstreamWatchers(member);
            long next = revision(ctl.run("get", "a", "-w", "json").ok().stdout()) + 1;
            try (Etcdctl.Background w1 = ctl.background("watch", "k", "--rev=" + next);
                 Etcdctl.Background w2 = ctl.background("watch", "k", "--rev=" + next, "--prev-kv")) {
                assertEquals("OK\n", ctl.run("put", "k", "v1").ok().stdout());
                assertEquals("OK\n", ctl.run("put", "k", "v2").ok().stdout());
                assertEquals(List.of("PUT", "k", "v1", "PUT", "k", "v2"), w1.awaitLines(6, 20_000));
                assertEquals(List.of("PUT", "k", "v1", "PUT", "k", "v1", "k", "v2"), w2.awaitLines(8, 20_000));
                assertEquals(before + 1, upstreamWatchers(member), "watchers on the member");
            }

            // serializable reads may come from the proxy's cache; a write through the proxy invalidates it
            assertEquals("v2\n", ctl.run("get", "k", "--consistency=s", "--print-value-only").ok().stdout());
            assertEquals("v2\n", ctl.run("get", "k", "--consistency=s", "--print-value-only").ok().stdout());
            assertEquals("OK\n", ctl.run("put", "k", "v3").ok().stdout());
            assertEquals("v3\n", ctl.run("get", "k", "--consistency=s", "--print-value-only").ok().stdout());
            assertEquals("1\n", ctl.run("del", "k").ok().stdout());
            assertEquals("", ctl.run("get", "k", "--consistency=s").ok().stdout());

            // leases: the attached keys are shown without the namespace
            String granted = ctl.run("lease", "grant", "60").ok().stdout();
            String lease = granted.split(" ")[1];
            assertEquals("OK\n", ctl.run("put", "--lease=" + lease, "l", "v").ok().stdout());
            assertTrue(ctl.run("lease", "timetolive", lease, "--keys").ok().stdout().endsWith("attached keys([l])\n"));
            assertEquals("lease " + lease + " revoked\n", ctl.run("lease", "revoke", lease).ok().stdout());
            assertEquals("", ctl.run("get", "l").ok().stdout());

            // transactions compare and write namespaced keys
            assertEquals("OK\n", ctl.run("put", "t", "x").ok().stdout());
            assertEquals("SUCCESS\n\nOK\n", ctl.runWithInput("value(\"t\") = \"x\"\n\nput t y\n\n\n", "txn").ok().stdout());
            assertEquals("y\n", direct.run("get", "ns/t", "--print-value-only").ok().stdout());

            // locks go to the cluster (the lock service is not namespaced by the proxy)
            assertEquals("locked\n", ctl.run("lock", "mylock", "echo", "locked").ok().stdout());

            // errors come back as the member wrote them
            Etcdctl.Result compacted = ctl.run("get", "a", "--rev=1000000");
            assertEquals(1, compacted.exitCode(), compacted.toString());
            assertTrue(compacted.stderr().contains("etcdserver: mvcc: required revision is a future revision"),
                    compacted.toString());

            // --resolver-prefix: the proxy registered itself and is the member list
            String members = Eventually.poll(Duration.ofSeconds(20), Duration.ofMillis(200),
                    () -> ctl.run("member", "list", "-w", "json").ok().stdout(), m -> m.contains(proxy.endpoint()));
            assertTrue(members.contains("\"clientURLs\":[\"" + proxy.endpoint() + "\"]"), members);
            assertTrue(direct.run("get", "ns/___grpc_proxy_endpoint/" + proxy.endpoint(), "--print-value-only").ok()
                    .stdout().startsWith("{\"Op\":0,\"Addr\":\"" + proxy.endpoint() + "\",\"Metadata\":\"{\\\"name\\\":"));
        }
    }

    /**
     * The proxy uses one member until it fails: killing that member moves the proxy (and a
     * watcher opened through it) to another member, and clients see nothing but a pause.
     */
    @ParameterizedTest
    @EnumSource(EtcdProcess.Binary.class)
    void proxyFailsOverWhenItsMemberDies(EtcdProcess.Binary binary) throws Exception {
        try (ProcessCluster cluster = ProcessCluster.start(binary, 3);
             ProxyProcess proxy = ProxyProcess.start(binary, "grpc-proxy", READY, List.of(),
                     "--endpoints=" + cluster.endpoints())) {
            Etcdctl ctl = new Etcdctl(proxy.endpoint());
            assertEquals("OK\n", ctl.run("put", "before", "1").ok().stdout());
            String used = memberId(ctl.run("endpoint", "status", "-w", "json").ok().stdout());
            long next = revision(ctl.run("get", "before", "-w", "json").ok().stdout()) + 1;
            try (Etcdctl.Background watch = ctl.background("watch", "after", "--rev=" + next)) {
                EtcdProcess victim = null;
                for (EtcdProcess m : cluster.members()) {
                    String id = memberId(new Etcdctl(m.endpoint()).run("endpoint", "status", "-w", "json").ok().stdout());
                    if (id.equals(used)) {
                        victim = m;
                    }
                }
                assertTrue(victim != null, "the proxy's member " + used + " is not in the cluster");
                victim.kill9();
                // the proxy notices the broken connection and dials the next endpoint; the cluster
                // may also need an election: wait for a write through the proxy to succeed
                Etcdctl.Result put = Eventually.poll(Duration.ofSeconds(30), Duration.ZERO,
                        () -> ctl.run("put", "after", "2"), r -> r.exitCode() == 0);
                assertEquals("OK\n", put.ok().stdout());
                String now = memberId(ctl.run("endpoint", "status", "-w", "json").ok().stdout());
                assertTrue(!now.equals(used), "still on member " + used);
                assertEquals("1\n", ctl.run("get", "before", "--print-value-only").ok().stdout());
                assertEquals(List.of("PUT", "after", "2"), watch.awaitLines(3, 30_000));
            }
        }
    }

    private static String memberId(String statusJson) {
        Matcher m = Pattern.compile("\"member_id\":(\\d+)").matcher(statusJson);
        assertTrue(m.find(), statusJson);
        return m.group(1);
    }

    /** Command lines that end before the proxy starts: same stdout, stderr and exit code as etcd 3.4. */
    @ParameterizedTest
    @ValueSource(strings = {
        "grpc-proxy", "grpc-proxy --help", "grpc-proxy --bogus", "grpc-proxy start --help", "grpc-proxy start --bogus",
        "grpc-proxy start --resolver-ttl=x", "grpc-proxy start --max-concurrent-streams=-1", "grpc-proxy start --debug=2",
    })
    void commandLineMatchesEtcd(String line) throws Exception {
        List<String> args = List.of(line.split(" "));
        List<String> ours = new ArrayList<>(ServerCommand.ours().prefix(List.of()));
        ours.addAll(args);
        List<String> real = new ArrayList<>(List.of(EtcdProcess.REAL_ETCD.toString()));
        real.addAll(args);
        assertEquals(TcpGatewayIT.run(real), TcpGatewayIT.run(ours), line);
    }

    private static long revision(String json) {
        Matcher m = REVISION.matcher(json);
        assertTrue(m.find(), json);
        return Long.parseLong(m.group(1));
    }

    private static int upstreamWatchers(EtcdProcess member) throws Exception {
        String body = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://" + member.endpoint()
                + "/metrics")).build(), HttpResponse.BodyHandlers.ofString()).body();
        Matcher m = WATCHERS.matcher(body);
        assertTrue(m.find(), "no watcher gauge in the member's metrics");
        return Integer.parseInt(m.group(1));
    }
}
