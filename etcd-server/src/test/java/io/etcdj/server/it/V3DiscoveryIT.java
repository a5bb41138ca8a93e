package io.etcdj.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.certs.ClusterCertificates;
import io.etcdj.certs.ClusterTlsLayout;
import io.etcdj.certs.TlsFiles;
import io.etcdj.harness.EtcdProcess;
import io.etcdj.harness.FreePorts;
import io.etcdj.harness.ProcessCluster;
import io.etcdj.harness.ServerCommand;
import io.etcdj.harness.TempDirs;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Bootstrap by v3 discovery (etcd 3.6's discovery protocol): a plain etcd cluster is the
 * discovery service (etcd 3.4, then ours); the operator puts the size under
 * /_etcd/registry/&lt;token&gt;/_config/size, and three of our members started with only
 * --discovery-token and --discovery-endpoints register under .../members/&lt;member ID&gt; and form
 * the cluster. A fourth member gets "cluster is full" without registering; a token without a
 * size, or with a bad one, stops the member with etcd's texts. etcd 3.4 has no v3 discovery, so
 * only the discovery store is compared.
 */
class V3DiscoveryIT {
    @ParameterizedTest
    @EnumSource(EtcdProcess.Binary.class)
    void threeMembersBootstrapFromADiscoveryToken(EtcdProcess.Binary store) throws Exception {
        try (EtcdProcess service = store == EtcdProcess.Binary.OURS ? EtcdProcess.ours() : EtcdProcess.realEtcd()) {
            service.start();
            Etcdctl disco = new Etcdctl(service.endpoint());
            String token = "token-" + store.name().toLowerCase();
            String registry = "/_etcd/registry/" + token;
            disco.run("put", registry + "/_config/size", "3").ok();

            try (ProcessCluster cluster = ProcessCluster.start(EtcdProcess.Binary.OURS, 3, "--discovery-token=" + token,
                    "--discovery-endpoints=" + service.endpoint())) {
                Etcdctl ctl = new Etcdctl(cluster.member(0).endpoint());
                String members = ctl.run("member", "list").ok().stdout();
                assertEquals(3, members.lines().count(), members);
                Map<String, String> expected = new TreeMap<>();
                for (String line : members.lines().toList()) {
                    String[] f = line.split(", ");
                    expected.put(registry + "/members/" + f[0], f[2] + "=" + f[3]);
                }
                for (EtcdProcess m : cluster.members()) {
                    assertTrue(members.contains(", started, " + m.name() + ", " + m.peerUrl() + ", "), members);
                }
                assertEquals("OK\n", ctl.run("put", "discovered", "v3").ok().stdout());
                assertEquals("v3\n", new Etcdctl(cluster.member(2).endpoint()).run("get", "discovered",
                        "--print-value-only").ok().stdout());
                assertEquals(expected, registrations(disco, registry), "one registration per member, under its ID");

                String late = runToExit(token, service.endpoint());
                assertTrue(late.startsWith("exit 1\n"), late);
                assertTrue(late.contains("failed to join discovery cluster (discovery: cluster is full)"), late);
                assertEquals(expected, registrations(disco, registry), "a member of a full cluster does not register");
            }
            if (store == EtcdProcess.Binary.REAL_ETCD) {
                String noSize = runToExit("token-without-size", service.endpoint());
                assertTrue(noSize.startsWith("exit 1\n")
                        && noSize.contains("failed to join discovery cluster (discovery: size key not found)"), noSize);
                disco.run("put", "/_etcd/registry/token-bad-size/_config/size", "three").ok();
                String badSize = runToExit("token-bad-size", service.endpoint());
                assertTrue(badSize.startsWith("exit 1\n")
                        && badSize.contains("failed to join discovery cluster (discovery: size key is bad)"), badSize);

                // a discovery service with authentication: --discovery-user (user:password form) and --discovery-password
                disco.run("put", "/_etcd/registry/token-auth/_config/size", "1").ok();
                disco.run("user", "add", "root:secret").ok();
                disco.run("auth", "enable").ok();
                String wrong = runToExit("token-auth", service.endpoint(), "--discovery-user=root:wrong");
                assertTrue(wrong.startsWith("exit 1\n") && wrong.contains("failed to join discovery cluster "
                        + "(etcdserver: authentication failed, invalid user ID or password)"), wrong);
                try (EtcdProcess single = EtcdProcess.ours("--discovery-token=token-auth",
                        "--discovery-endpoints=" + service.endpoint(), "--discovery-user=root", "--discovery-password=secret")) {
                    single.start();
                    assertEquals("OK\n", new Etcdctl(single.endpoint()).run("put", "alone", "yes").ok().stdout());
                    assertEquals(1, disco.run("--user=root:secret", "get", "--prefix", "--keys-only",
                            "/_etcd/registry/token-auth/members").ok().stdout().lines().filter(l -> !l.isEmpty()).count());
                }
            }
        }
    }

    /**
     * A discovery service that wants client certificates (etcd 3.4 serving https with
     * --client-cert-auth): --discovery-cacert, --discovery-cert and --discovery-key, TLS asked for by
     * --discovery-insecure-transport=false on a scheme-less endpoint.
     */
    @Test
    void aDiscoveryServiceBehindClientCertificates() throws Exception {
        Path dir = TempDirs.create("v3-discovery-tls-");
        try {
            ClusterTlsLayout pki = ClusterCertificates.forMembers(List.of(
                    new ClusterCertificates.Member("disco", List.of("127.0.0.1", "localhost")))).client("root")
                    .writeTo(dir.resolve("pki"));
            TlsFiles server = pki.server("disco");
            TlsFiles client = pki.client();
            String ca = pki.caCertificate().toString();
            int tlsPort = FreePorts.pick();
            try (EtcdProcess service = EtcdProcess.realEtcd("--cert-file=" + server.certFile(),
                    "--key-file=" + server.keyFile(), "--trusted-ca-file=" + ca, "--client-cert-auth=true")) {
                service.alsoListenOn("https://127.0.0.1:" + tlsPort);
                service.start();
                Etcdctl disco = new Etcdctl(service.endpoint());
                disco.run("put", "/_etcd/registry/token-tls/_config/size", "1").ok();
                try (EtcdProcess single = EtcdProcess.ours("--discovery-token=token-tls",
                        "--discovery-endpoints=127.0.0.1:" + tlsPort, "--discovery-insecure-transport=false",
                        "--discovery-cacert=" + ca, "--discovery-cert=" + client.certFile(),
                        "--discovery-key=" + client.keyFile())) {
                    single.start();
                    assertEquals("OK\n", new Etcdctl(single.endpoint()).run("put", "over", "tls").ok().stdout());
                    assertTrue(disco.run("get", "--prefix", "/_etcd/registry/token-tls/members").ok().stdout()
                            .contains("\nit=" + single.peerUrl() + "\n"));
                }
            }
        } finally {
            TempDirs.delete(dir);
        }
    }

    private static Map<String, String> registrations(Etcdctl disco, String registry) {
        List<String> lines = disco.run("get", "--prefix", registry + "/members").ok().stdout().lines().toList();
        Map<String, String> out = new TreeMap<>();
        for (int i = 0; i + 1 < lines.size(); i += 2) {
            out.put(lines.get(i), lines.get(i + 1));
        }
        return out;
    }

    /** Runs one of our members with v3 discovery on fresh ports until it exits. */
    private static String runToExit(String token, String endpoints, String... flags) throws Exception {
        List<String> cmd = new ArrayList<>(ServerCommand.ours().prefix(List.of()));
        String peer = "http://127.0.0.1:" + FreePorts.pick();
        String client = "http://127.0.0.1:" + FreePorts.pick();
        Path dir = TempDirs.create("v3-discovery-it-");
        try {
            cmd.addAll(List.of("--name=late", "--data-dir=" + dir.resolve("data"), "--discovery-token=" + token,
                    "--discovery-endpoints=" + endpoints, "--listen-peer-urls=" + peer, "--initial-advertise-peer-urls=" + peer,
                    "--listen-client-urls=" + client, "--advertise-client-urls=" + client));
            cmd.addAll(List.of(flags));
            return TcpGatewayIT.run(cmd);
        } finally {
            TempDirs.delete(dir);
        }
    }
}
