package io.etcdj.server.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.harness.FreePorts;
import io.etcdj.server.listen.IoLoops;
import io.etcdj.server.log.LogSink;
import io.etcdj.server.metrics.Metrics;
import io.etcdj.server.version.Versions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What a member asks its peers over HTTP/1.1, as etcd asks them: the prober's /raft/probing and the
 * downgrade monitor's /version, answered by a peer's transport on its peer port.
 */
class PeerHttpClientTest {
    private static final long SELF = 1;
    private static final long PEER = 2;
    private static final long CLUSTER = 7;

    private final String peerUrl = "http://127.0.0.1:" + FreePorts.pick();
    private final IoLoops loops = IoLoops.forTcp("http-client-test", 0);
    private final PeerHttpClient client = new PeerHttpClient(
            new RaftStreamDialer(() -> PeerLinks.DEFAULTS, () -> loops, () -> null, () -> null));
    private PeerTransport peer;

    @BeforeEach
    void peerListens() throws IOException {
        peer = new PeerTransport(new FakeMember(PEER, CLUSTER), new Metrics(), LogSink.stderr());
        peer.listen(List.of(URI.create(peerUrl)));
    }

    @AfterEach
    void stop() {
        peer.close();
        loops.shutdown(0, 1);
    }

    @Test
    void theProbeIsAnsweredWithItsRoundTrip() {
        PeerHttpClient.Answer a = client.get(peerUrl, "/raft/probing", 5000).join();
        assertTrue(a.body().startsWith("{\"OK\":true,\"Now\":\""), a.body());
        assertTrue(a.roundTripNanos() > 0 && a.roundTripNanos() < TimeUnit.SECONDS.toNanos(5), "round trip " + a.roundTripNanos());
    }

    @Test
    void aMembersServerVersionIsReadFromItsPeerUrl() {
        assertEquals(Versions.SERVER, client.serverVersion(peerUrl, 5000));

        FakeMember self = new FakeMember(SELF, CLUSTER);
        self.urls.put(PEER, peerUrl);
        PeerTransport mine = new PeerTransport(self, new Metrics(), LogSink.stderr());
        try {
            assertEquals(Versions.SERVER, mine.serverVersionOf(PEER, 5000), "the transport asks the same way");
        } finally {
            mine.close();
        }
    }

    @Test
    void anotherStatusOrNoListenerFailsTheRequest() {
        CompletionException notFound = assertThrows(CompletionException.class, () -> client.get(peerUrl, "/raft", 5000).join());
        assertTrue(notFound.getCause().getMessage().contains("404 Not Found"), notFound.getCause().getMessage());

        String nobody = "http://127.0.0.1:" + FreePorts.pick();
        CompletionException refused = assertThrows(CompletionException.class, () -> client.get(nobody, "/raft/probing", 5000).join());
        assertTrue(refused.getCause() instanceof IOException, String.valueOf(refused.getCause()));
        assertThrows(UncheckedIOException.class, () -> client.serverVersion(nobody, 5000));
    }
}
