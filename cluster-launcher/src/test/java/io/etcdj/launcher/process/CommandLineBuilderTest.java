package io.etcdj.launcher.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.launcher.spec.ClusterFiles;
import io.etcdj.launcher.spec.ClusterSpec;
import io.etcdj.launcher.spec.MemberSpec;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CommandLineBuilderTest {
    private static final EtcdBinary BINARY = new EtcdBinary(Path.of("/opt/etcd"), "test");

    @Test
    void buildsTheSeedMembersCommandLine() throws Exception {
        ClusterSpec spec = ClusterFiles.load(Optional.empty(), Path.of("/w"), Map.of());
        MemberSpec infra2 = spec.member("infra2").orElseThrow();
        List<String> cmd = CommandLineBuilder.build(BINARY, spec, infra2, new ClusterLayout(spec.baseDir()),
                CommandLineBuilder.founders(spec.members()), Optional.empty());
        assertEquals(List.of("/opt/etcd",
                "--name=infra2",
                "--data-dir=/w/local-cluster.etcd/infra2.etcd",
                "--listen-client-urls=http://127.0.0.1:22379",
                "--advertise-client-urls=http://127.0.0.1:22379",
                "--listen-peer-urls=http://127.0.0.1:22380",
                "--initial-advertise-peer-urls=http://127.0.0.1:22380",
                "--initial-cluster-token=etcd-cluster-1",
                "--initial-cluster=infra1=http://127.0.0.1:2380,infra2=http://127.0.0.1:22380,infra3=http://127.0.0.1:32380",
                "--initial-cluster-state=new"), cmd);
    }

    @Test
    void memberFlagsComeAfterClusterFlagsAndProxyIsAdvertised() throws Exception {
        ClusterSpec spec = ClusterFiles.parse("c.yml", String.join("\n",
                "faults: proxy",
                "flags: [--election-timeout=200]",
                "members:",
                "  a: {client-url: 'http://127.0.0.1:10', peer-url: 'http://127.0.0.1:20', flags: [--election-timeout=500]}",
                ""), true, Map.of());
        MemberSpec a = spec.members().get(0);
        List<String> cmd = CommandLineBuilder.build(BINARY, spec, a, new ClusterLayout(Path.of("/b")),
                CommandLineBuilder.founders(spec.members()), Optional.empty());
        assertTrue(cmd.contains("--listen-peer-urls=http://127.0.0.1:21"), cmd.toString());
        assertTrue(cmd.contains("--initial-advertise-peer-urls=http://127.0.0.1:20"), cmd.toString());
        assertTrue(cmd.contains("--initial-cluster=a=http://127.0.0.1:20"), cmd.toString());
        assertEquals(List.of("--election-timeout=200", "--election-timeout=500"), cmd.subList(cmd.size() - 2, cmd.size()));
    }

    @Test
    void tlsFlags() throws Exception {
        ClusterSpec spec = ClusterFiles.parse("c.yml",
                "tls: true\nmembers:\n  a: {client-url: 'http://127.0.0.1:10', peer-url: 'http://127.0.0.1:20'}\n", true, Map.of());
        TlsFiles files = new TlsFiles(Path.of("/c/ca.pem"), Path.of("/c/a.pem"), Path.of("/c/a-key.pem"),
                Path.of("/c/peer-a.pem"), Path.of("/c/peer-a-key.pem"));
        List<String> cmd = CommandLineBuilder.build(BINARY, spec, spec.members().get(0), new ClusterLayout(Path.of("/b")),
                CommandLineBuilder.founders(spec.members()), Optional.of(files));
        assertTrue(cmd.containsAll(List.of("--listen-client-urls=https://127.0.0.1:10", "--cert-file=/c/a.pem",
                "--key-file=/c/a-key.pem", "--trusted-ca-file=/c/ca.pem", "--client-cert-auth",
                "--peer-cert-file=/c/peer-a.pem", "--peer-key-file=/c/peer-a-key.pem",
                "--peer-trusted-ca-file=/c/ca.pem", "--peer-client-cert-auth")), cmd.toString());
    }

    @Test
    void initialClusterKeepsEveryUrlOfEveryMember() {
        assertEquals("a=http://h:1,a=http://h:2,=http://h:3", CommandLineBuilder.initialClusterFlag(List.of(
                new CommandLineBuilder.Peer("a", List.of("http://h:1", "http://h:2")),
                new CommandLineBuilder.Peer("", List.of("http://h:3")))));
    }
}
