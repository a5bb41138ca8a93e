package io.etcdj.launcher.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProcfileParserTest {
    /** The shape of etcd's own Procfile: process names etcd1..3, member names infra1..3. */
    static final String ETCD_PROCFILE = String.join("\n",
            "# Use goreman to run `go get github.com/mattn/goreman`",
            "etcd1: bin/etcd --name infra1 --listen-client-urls http://127.0.0.1:2379 --advertise-client-urls http://127.0.0.1:2379 "
                    + "--listen-peer-urls http://127.0.0.1:12380 --initial-advertise-peer-urls http://127.0.0.1:12380 "
                    + "--initial-cluster-token etcd-cluster-1 --initial-cluster "
                    + "'infra1=http://127.0.0.1:12380,infra2=http://127.0.0.1:22380,infra3=http://127.0.0.1:32380' --initial-cluster-state "
                    + "new --enable-pprof --logger=zap --log-outputs=stderr",
            "etcd2: bin/etcd --name infra2 --listen-client-urls http://127.0.0.1:22379 --advertise-client-urls http://127.0.0.1:22379 "
                    + "--listen-peer-urls http://127.0.0.1:22380 --initial-advertise-peer-urls http://127.0.0.1:22380 "
                    + "--initial-cluster-token etcd-cluster-1 --initial-cluster "
                    + "'infra1=http://127.0.0.1:12380,infra2=http://127.0.0.1:22380,infra3=http://127.0.0.1:32380' --initial-cluster-state "
                    + "new --enable-pprof --logger=zap --log-outputs=stderr",
            "etcd3: bin/etcd --name infra3 --listen-client-urls http://127.0.0.1:32379 --advertise-client-urls http://127.0.0.1:32379 "
                    + "--listen-peer-urls http://127.0.0.1:32380 --initial-advertise-peer-urls http://127.0.0.1:32380 "
                    + "--initial-cluster-token etcd-cluster-1 --initial-cluster "
                    + "'infra1=http://127.0.0.1:12380,infra2=http://127.0.0.1:22380,infra3=http://127.0.0.1:32380' --initial-cluster-state "
                    + "new --enable-pprof --logger=zap --log-outputs=stderr",
            "#proxy: bin/etcd grpc-proxy start --endpoints=127.0.0.1:2379,127.0.0.1:22379,127.0.0.1:32379 --listen-addr=127.0.0.1:23790",
            "");

    @Test
    void readsEtcdsOwnProcfile() throws Exception {
        ClusterSpec spec = ClusterFiles.parse("Procfile", ETCD_PROCFILE, false, Map.of());
        assertEquals("etcd-cluster-1", spec.token());
        assertEquals(List.of("etcd1", "etcd2", "etcd3"), spec.members().stream().map(MemberSpec::process).toList());
        MemberSpec second = spec.member("infra2").orElseThrow();
        assertEquals("etcd2", second.process());
        assertEquals(URI.create("http://127.0.0.1:22379"), second.clientUrl());
        assertEquals(URI.create("http://127.0.0.1:22380"), second.peerUrl());
        assertEquals(List.of("--enable-pprof", "--logger=zap", "--log-outputs=stderr"), second.flags());
        assertEquals(3, second.line());
        assertTrue(spec.member("etcd3").isPresent(), "process names find members too");
    }

    @Test
    void keepsFlagValuesAndExplicitDataDir() throws Exception {
        ClusterSpec spec = ClusterFiles.parse("Procfile",
                "a: etcd --name=x --data-dir /srv/x --listen-client-urls=http://127.0.0.1:1 --listen-peer-urls http://127.0.0.1:2 "
                        + "--quota-backend-bytes 100\n",
                false, Map.of());
        MemberSpec m = spec.members().get(0);
        assertEquals("x", m.name());
        assertEquals(Path.of("/srv/x"), m.dataDir().orElseThrow());
        assertEquals(List.of("--quota-backend-bytes", "100"), m.flags());
    }

    @Test
    void expandsEnvironmentVariables() throws Exception {
        ClusterSpec spec = ClusterFiles.parse("Procfile",
                "a: etcd --listen-client-urls http://127.0.0.1:$CPORT --listen-peer-urls \"http://127.0.0.1:${PPORT}\"\n",
                false, Map.of("CPORT", "5000", "PPORT", "5001"));
        assertEquals(5000, spec.members().get(0).clientUrl().getPort());
        assertEquals(5001, spec.members().get(0).peerUrl().getPort());
    }

    @Test
    void lineWithoutColonNamesTheLine() {
        ClusterFileException e = assertThrows(ClusterFileException.class, () -> ClusterFiles.parse("Procfile",
                "# comment\n\nthis is not an entry\n", false, Map.of()));
        assertEquals(3, e.line());
        assertEquals("Procfile:3: expected \"name: command\", got \"this is not an entry\"", e.getMessage());
    }

    @Test
    void rejectsCommandsThatAreNotEtcd() {
        ClusterFileException e = assertThrows(ClusterFileException.class, () -> ClusterFiles.parse("Procfile",
                "web: python -m http.server\n", false, Map.of()));
        assertEquals(1, e.line());
        assertTrue(e.reason().contains("runs etcd members only"), e.reason());
    }

    @Test
    void rejectsEtcdSubcommands() {
        ClusterFileException e = assertThrows(ClusterFileException.class, () -> ClusterFiles.parse("Procfile",
                "proxy: bin/etcd grpc-proxy start --endpoints=127.0.0.1:2379\n", false, Map.of()));
        assertTrue(e.reason().contains("etcd grpc-proxy"), e.reason());
    }

    @Test
    void reportsUnterminatedQuoteOnItsLine() {
        ClusterFileException e = assertThrows(ClusterFileException.class, () -> ClusterFiles.parse("Procfile",
                "a: etcd --listen-client-urls http://127.0.0.1:1 --listen-peer-urls http://127.0.0.1:2\n"
                        + "b: etcd --initial-cluster 'x=http://127.0.0.1:3\n", false, Map.of()));
        assertEquals("Procfile:2: unterminated single quote", e.getMessage());
    }

    @Test
    void reportsDuplicateProcesses() {
        ClusterFileException e = assertThrows(ClusterFileException.class, () -> ClusterFiles.parse("Procfile",
                "a: etcd --listen-client-urls http://127.0.0.1:1 --listen-peer-urls http://127.0.0.1:2\n"
                        + "a: etcd --listen-client-urls http://127.0.0.1:3 --listen-peer-urls http://127.0.0.1:4\n", false, Map.of()));
        assertEquals("Procfile:2: process \"a\" is defined twice", e.getMessage());
    }

    @Test
    void reportsMissingUrls() {
        ClusterFileException e = assertThrows(ClusterFileException.class, () -> ClusterFiles.parse("Procfile",
                "a: etcd --name a --listen-client-urls http://127.0.0.1:1\n", false, Map.of()));
        assertTrue(e.reason().contains("no --listen-peer-urls"), e.reason());
    }

    @Test
    void reportsBadUrls() {
        ClusterFileException e = assertThrows(ClusterFileException.class, () -> ClusterFiles.parse("Procfile",
                "a: etcd --listen-client-urls tcp://127.0.0.1:1 --listen-peer-urls http://127.0.0.1:2\n", false, Map.of()));
        assertEquals("Procfile:1: listen-client-urls: URL scheme must be http or https (got \"tcp://127.0.0.1:1\")",
                e.getMessage());
    }

    @Test
    void reportsConflictingTokens() {
        ClusterFileException e = assertThrows(ClusterFileException.class, () -> ClusterFiles.parse("Procfile",
                "a: etcd --listen-client-urls http://127.0.0.1:1 --listen-peer-urls http://127.0.0.1:2 --initial-cluster-token one\n"
                        + "b: etcd --listen-client-urls http://127.0.0.1:3 --listen-peer-urls http://127.0.0.1:4 --initial-cluster-token "
                                + "two\n",
                false, Map.of()));
        assertEquals(2, e.line());
    }

    @Test
    void reportsPortsUsedTwice() {
        ClusterFileException e = assertThrows(ClusterFileException.class, () -> ClusterFiles.parse("Procfile",
                "a: etcd --listen-client-urls http://127.0.0.1:1 --listen-peer-urls http://127.0.0.1:2\n"
                        + "b: etcd --listen-client-urls http://127.0.0.1:2 --listen-peer-urls http://127.0.0.1:4\n", false, Map.of()));
        assertEquals("Procfile:2: port 2 is used twice: by the peer URL of a and by the client URL of b", e.getMessage());
    }

    @Test
    void emptyProcfileIsAnError() {
        ClusterFileException e = assertThrows(ClusterFileException.class,
                () -> ClusterFiles.parse("Procfile", "# nothing\n", false, Map.of()));
        assertEquals("Procfile: no processes defined", e.getMessage());
    }

    @Test
    void detectsFormat() {
        assertFalse(ClusterFiles.looksLikeYaml(Path.of("Procfile"), ETCD_PROCFILE));
        assertTrue(ClusterFiles.looksLikeYaml(Path.of("cluster.yml"), "a: b"));
        assertTrue(ClusterFiles.looksLikeYaml(Path.of("Procfile"), "members:\n  a: etcd\n"));
        assertTrue(ClusterFiles.looksLikeYaml(Path.of("Procfile"), "token: x\n"));
    }
}
