package io.etcdj.certs.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.certs.cli.CliRun;
import io.etcdj.harness.Prerequisites;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Three real etcd members form a cluster over peer TLS with the output of {@code etcd-certs cluster}. */
class RealEtcdPeerTlsIT {
    @TempDir
    Path dir;

    @Test
    void threeMembersReplicateOverPeerTls() throws Exception {
        Prerequisites.requireExecutable(ExternalCommand.ETCD, "etcd-server");
        Prerequisites.requireExecutable(ExternalCommand.ETCDCTL, "etcd-client");
        List<String> names = List.of("infra0", "infra1", "infra2");
        CliRun certs = CliRun.of("cluster", "--member", "infra0=127.0.0.1,localhost", "--member", "infra1=127.0.0.1,localhost",
                "--member", "infra2=127.0.0.1,localhost", "--out", dir.toString());
        assertEquals(0, certs.exitCode(), certs.err());
        List<EtcdMember> members = new ArrayList<>();
        try {
            for (String name : names) {
                members.add(new EtcdMember(name, dir));
            }
            String initialCluster = members.stream().map(m -> m.name + "=" + m.peerUrl(true)).collect(Collectors.joining(","));
            for (EtcdMember member : members) {
                member.flags("--cert-file", f(member.name + ".pem"), "--key-file", f(member.name + "-key.pem"),
                        "--client-cert-auth", "--trusted-ca-file", f("ca.pem"),
                        "--peer-cert-file", f("peer-" + member.name + ".pem"), "--peer-key-file", f("peer-" + member.name + "-key.pem"),
                        "--peer-client-cert-auth", "--peer-trusted-ca-file", f("ca.pem"));
                member.start(initialCluster, true);
            }
            List<String> tls = List.of("--cacert", f("ca.pem"), "--cert", f("client.pem"), "--key", f("client-key.pem"));
            for (EtcdMember member : members) {
                member.awaitHealthy(tls, Duration.ofSeconds(40));
            }
            ExternalCommand list = members.get(0).etcdctl(tls, "member", "list");
            assertEquals(3, list.output().trim().lines().count(), list.output());
            for (EtcdMember member : members) {
                assertTrue(list.output().contains(member.peerUrl(true)), list.output());
            }
            assertEquals("OK", members.get(0).etcdctl(tls, "put", "replicated", "over-tls").output().trim());
            ExternalCommand get = members.get(2).etcdctl(tls, "get", "replicated");
            assertEquals("replicated\nover-tls", get.output().trim(), get.output());
        } finally {
            for (EtcdMember member : members) {
                member.close();
            }
        }
    }

    private String f(String name) {
        return dir.resolve(name).toString();
    }
}
