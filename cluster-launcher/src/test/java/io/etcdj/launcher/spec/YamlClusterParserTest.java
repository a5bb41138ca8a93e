package io.etcdj.launcher.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class YamlClusterParserTest {
    @Test
    void builtInDefaultIsTheSeedCluster() throws Exception {
        ClusterSpec spec = ClusterFiles.load(Optional.empty(), Path.of("/home/user/project"), Map.of());
        assertEquals("etcd-cluster-1", spec.token());
        assertFalse(spec.tls());
        assertEquals(FaultMode.NONE, spec.faults());
        assertEquals(Path.of("/home/user/project/local-cluster.etcd"), spec.baseDir());
        assertEquals(List.of("infra1", "infra2", "infra3"), spec.members().stream().map(MemberSpec::name).toList());
        assertEquals(List.of(2379, 22379, 32379), spec.members().stream().map(m -> m.clientUrl().getPort()).toList());
        assertEquals(List.of(2380, 22380, 32380), spec.members().stream().map(m -> m.peerUrl().getPort()).toList());
        spec.members().forEach(m -> assertEquals("127.0.0.1", m.clientUrl().getHost()));
    }

    @Test
    void repositoryCopyMatchesTheBuiltInDefault() throws Exception {
        Path copy = Path.of(System.getProperty("user.dir")).getParent().resolve("Procfile.yml");
        String builtIn = new String(getClass().getResourceAsStream(ClusterFiles.DEFAULT_RESOURCE).readAllBytes());
        assertEquals(builtIn, Files.readString(copy));
    }

    @Test
    void readsStructuredAndCommandMembers() throws Exception {
        String yaml = String.join("\n",
                "token: t1",
                "etcd: /opt/etcd/bin/etcd",
                "base-dir: /var/tmp/c",
                "flags: --heartbeat-interval=20 --election-timeout=200",
                "env:",
                "  GOMAXPROCS: \"1\"",
                "members:",
                "  m1:",
                "    client-url: http://127.0.0.1:5001",
                "    peer-url: [http://127.0.0.1:5002]",
                "    flags: [--quota-backend-bytes=1000]",
                "    env: {A: b}",
                "  m2: etcd --name other --listen-client-urls http://127.0.0.1:5003 --listen-peer-urls http://127.0.0.1:5004",
                "");
        ClusterSpec spec = ClusterFiles.parse("c.yml", yaml, true, Map.of());
        assertEquals("t1", spec.token());
        assertEquals(Optional.of("/opt/etcd/bin/etcd"), spec.etcdBinary());
        assertEquals(Path.of("/var/tmp/c"), spec.baseDir());
        assertEquals(List.of("--heartbeat-interval=20", "--election-timeout=200"), spec.flags());
        assertEquals(Map.of("GOMAXPROCS", "1"), spec.env());
        MemberSpec m1 = spec.members().get(0);
        assertEquals(URI.create("http://127.0.0.1:5002"), m1.peerUrl());
        assertEquals(List.of("--quota-backend-bytes=1000"), m1.flags());
        assertEquals(Map.of("A", "b"), m1.env());
        assertEquals(8, m1.line());
        MemberSpec m2 = spec.members().get(1);
        assertEquals("other", m2.name());
        assertEquals(13, m2.line());
    }

    @Test
    void unknownKeyIsReportedWithItsLine() {
        String yaml = "token: t\nmembers:\n  a:\n    client-url: http://127.0.0.1:1\n    peer-url: http://127.0.0.1:2\n    colour: red\n";
        ClusterFileException e = assertThrows(ClusterFileException.class, () -> ClusterFiles.parse("c.yml", yaml, true, Map.of()));
        assertEquals(6, e.line());
        assertTrue(e.getMessage().startsWith("c.yml:6: unknown setting of member \"a\" \"colour\""), e.getMessage());
    }

    @Test
    void syntaxErrorIsReportedWithItsLine() {
        String yaml = "token: t\nmembers:\n  a: [unclosed\n  b: x\n";
        ClusterFileException e = assertThrows(ClusterFileException.class, () -> ClusterFiles.parse("c.yml", yaml, true, Map.of()));
        assertTrue(e.line() >= 3, "line " + e.line());
        assertTrue(e.reason().startsWith("invalid YAML: "), e.reason());
    }

    @Test
    void badUrlIsReportedOnTheValuesLine() {
        String yaml = "members:\n  a:\n    client-url: http://127.0.0.1\n    peer-url: http://127.0.0.1:2\n";
        ClusterFileException e = assertThrows(ClusterFileException.class, () -> ClusterFiles.parse("c.yml", yaml, true, Map.of()));
        assertEquals("c.yml:3: client-url: URL must have a host and a port (got \"http://127.0.0.1\")", e.getMessage());
    }

    @Test
    void missingPeerUrl() {
        String yaml = "members:\n  a:\n    client-url: http://127.0.0.1:1\n";
        ClusterFileException e = assertThrows(ClusterFileException.class, () -> ClusterFiles.parse("c.yml", yaml, true, Map.of()));
        assertEquals("c.yml:3: member \"a\" needs \"peer-url\"", e.getMessage());
    }

    @Test
    void wrongTypesAndValues() {
        assertEquals("c.yml:1: \"tls\" must be true or false (got \"maybe\")", assertThrows(ClusterFileException.class,
                () -> ClusterFiles.parse("c.yml", "tls: maybe\nmembers: {}\n", true, Map.of())).getMessage());
        assertEquals("c.yml:1: \"faults\" must be \"proxy\" or \"none\" (got \"chaos\")", assertThrows(ClusterFileException.class,
                () -> ClusterFiles.parse("c.yml", "faults: chaos\n", true, Map.of())).getMessage());
        assertEquals("c.yml:1: \"members\" must be a mapping, got a list", assertThrows(ClusterFileException.class,
                () -> ClusterFiles.parse("c.yml", "members: [a, b]\n", true, Map.of())).getMessage());
        assertEquals("c.yml:2: duplicate key \"token\"", assertThrows(ClusterFileException.class,
                () -> ClusterFiles.parse("c.yml", "token: a\ntoken: b\n", true, Map.of())).getMessage());
        assertEquals("c.yml: the file is empty", assertThrows(ClusterFileException.class,
                () -> ClusterFiles.parse("c.yml", "", true, Map.of())).getMessage());
    }

    @Test
    void tlsTurnsUrlsIntoHttps() throws Exception {
        ClusterSpec spec = ClusterFiles.parse("c.yml",
                "tls: true\nmembers:\n  a: {client-url: 'http://127.0.0.1:1', peer-url: 'http://127.0.0.1:2'}\n", true, Map.of());
        MemberSpec a = spec.members().get(0);
        assertEquals(URI.create("https://127.0.0.1:1"), a.clientUrl());
        assertEquals(URI.create("https://127.0.0.1:2"), a.peerUrl());
        assertEquals(URI.create("https://127.0.0.1:2"), a.listenPeerUrls().get(0));
    }

    @Test
    void proxyMovesTheRealPeerListenerOnePortUp() throws Exception {
        ClusterSpec spec = ClusterFiles.parse("c.yml",
                "faults: proxy\nmembers:\n  a: {client-url: 'http://127.0.0.1:10', peer-url: 'http://127.0.0.1:20'}\n", true, Map.of());
        MemberSpec a = spec.members().get(0);
        assertEquals(URI.create("http://127.0.0.1:20"), a.peerUrl());
        assertEquals(URI.create("http://127.0.0.1:21"), a.listenPeerUrls().get(0));
    }

    @Test
    void proxyPortsTakePartInTheDuplicateCheck() {
        ClusterFileException e = assertThrows(ClusterFileException.class, () -> ClusterFiles.parse("c.yml",
                "faults: proxy\nmembers:\n  a: {client-url: 'http://127.0.0.1:10', peer-url: 'http://127.0.0.1:20'}\n"
                        + "  b: {client-url: 'http://127.0.0.1:21', peer-url: 'http://127.0.0.1:30'}\n", true, Map.of()));
        assertEquals("c.yml:4: port 21 is used twice: by the peer URL of a and by the client URL of b", e.getMessage());
    }

    @Test
    void relativeBaseDirIsRelativeToTheFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("sub").resolve("cluster.yml");
        Files.createDirectories(file.getParent());
        Files.writeString(file, "base-dir: data\nmembers:\n  a: {client-url: 'http://127.0.0.1:1', peer-url: 'http://127.0.0.1:2'}\n");
        ClusterSpec spec = ClusterFiles.load(Optional.of(file), Path.of("/elsewhere"), Map.of());
        assertEquals(dir.resolve("sub").resolve("data"), spec.baseDir());
    }

    @Test
    void missingFile(@TempDir Path dir) {
        ClusterFileException e = assertThrows(ClusterFileException.class,
                () -> ClusterFiles.load(Optional.of(dir.resolve("nope.yml")), dir, Map.of()));
        assertTrue(e.getMessage().endsWith("cannot read cluster file: no such file"), e.getMessage());
    }
}
