package io.etcdj.server.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.etcdj.harness.Eventually;
import io.etcdj.harness.FreePorts;
import io.etcdj.server.log.LogSink;
import io.etcdj.server.metrics.Metrics;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A peer counts as active (what the start-up election tick advance waits for) once this member's
 * Raft stream to it is open, as in etcd: the stream is dialed from the start and again while the
 * peer does not listen, with no Raft message needed to bring it up, and a stream that breaks
 * makes the peer inactive until it is open again.
 */
class PeerActivityTest {
    private static final long SELF = 1;
    private static final long PEER = 2;
    private static final long CLUSTER = 7;

    @Test
    void aPeerIsActiveWhileItsStreamIsOpenWithoutAnyMessageSent() throws Exception {
        FakeMember self = new FakeMember(SELF, CLUSTER);
        String url = "http://127.0.0.1:" + FreePorts.pick();
        self.urls.put(PEER, url);
        PeerTransport mine = new PeerTransport(self, new Metrics(), LogSink.stderr());
        PeerTransport theirs = new PeerTransport(new FakeMember(PEER, CLUSTER), new Metrics(), LogSink.stderr());
        PeerTransport theirsAgain = new PeerTransport(new FakeMember(PEER, CLUSTER), new Metrics(), LogSink.stderr());
        try {
            mine.connect();
            Thread.sleep(5 * PeerClient.REDIAL_MILLIS);
            assertEquals(0, mine.activePeers(), "nothing listens at the peer's URL yet");

            assertEquals(false, mine.reachable(PEER), "no message can leave for a peer that does not listen");

            theirs.listen(List.of(URI.create(url)));
            assertEquals(1, within5s(mine::activePeers, 1), "active once the peer listens");
            assertEquals(true, mine.reachable(PEER));
            assertEquals(0, self.unreachable.get(), "no message was sent, so none was lost while the peer was down");

            theirs.close();
            assertEquals(false, Eventually.poll(Duration.ofSeconds(5), Duration.ofMillis(20), () -> mine.reachable(PEER), r -> !r),
                    "unreachable once the connection closed");
            assertEquals(0, within5s(mine::activePeers, 0), "inactive once the stream broke");

            theirsAgain.listen(List.of(URI.create(url)));
            assertEquals(1, within5s(mine::activePeers, 1), "active again once the peer is back");
        } finally {
            mine.close();
            theirs.close();
            theirsAgain.close();
        }
    }

    private static int within5s(Eventually.Attempt<Integer> count, int wanted) throws Exception {
        return Eventually.poll(Duration.ofSeconds(5), Duration.ofMillis(20), count, n -> n == wanted);
    }
}
