package io.etcdj.server.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.harness.Eventually;
import io.etcdj.harness.FreePorts;
import io.etcdj.raftpb.Message;
import io.etcdj.raftpb.MessageType;
import io.etcdj.server.listen.IoLoops;
import io.etcdj.server.log.LogSink;
import io.etcdj.server.metrics.Metrics;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A peer link delivers Raft messages in the order the Raft loop gave them, whether a message went
 * through the client's queue (before and while the stream opens) or straight onto the open stream.
 */
class PeerClientOrderTest {
    private static final long SELF = 1;
    private static final long PEER = 2;
    private static final long CLUSTER = 7;

    @Test
    void messagesArriveInOrderAcrossQueuedAndDirectSends() throws Exception {
        FakeMember receiver = new FakeMember(PEER, CLUSTER);
        FakeMember sender = new FakeMember(SELF, CLUSTER);
        String url = "http://127.0.0.1:" + FreePorts.pick();
        sender.urls.put(PEER, url);
        PeerTransport server = new PeerTransport(receiver, new Metrics(), LogSink.stderr());
        IoLoops loops = IoLoops.forTcp("test-peer", 0);
        RaftStreamDialer streams = RaftStreamTest.plaintextDialer(PeerLinks.DEFAULTS, loops);
        CountDownLatch dialing = new CountDownLatch(1);
        CountDownLatch dial = new CountDownLatch(1);
        CountDownLatch dialed = new CountDownLatch(1);
        PeerClient client = new PeerClient(PEER, sender, target -> {
            throw new AssertionError("no gRPC call expected");
        }, (peerUrl, hello) -> {
            dialing.countDown();
            try {
                dial.await();
            } catch (InterruptedException e) {
                throw new IOException(e);
            }
            RaftStream opened = streams.open(peerUrl, hello);
            dialed.countDown();
            return opened;
        }, Duration.ZERO, new Metrics(), LogSink.stderr(), false);
        int total = 20_000;
        int beforeStart = 2_000;
        int whileDialing = 1_000;
        try {
            server.listen(List.of(URI.create(url)));
            // the first ones wait in the queue (the client's thread is not running yet), more while
            // it dials (the Raft loop never waits for a dial); the rest are sent while that thread
            // drains the queue, and race it, in bursts short enough not to fill the queue (a full
            // queue drops, as Raft tolerates)
            for (int i = 1; i <= total; i++) {
                if (i == beforeStart + 1) {
                    client.start();
                    assertTrue(dialing.await(10, TimeUnit.SECONDS), "the client dials");
                }
                if (i == beforeStart + whileDialing + 1) {
                    dial.countDown();
                    assertTrue(dialed.await(10, TimeUnit.SECONDS), "the stream opens");
                }
                client.send(Message.newBuilder().setType(MessageType.MsgApp).setTo(PEER).setFrom(SELF).setIndex(i).build());
                if (i % 10 == 0) {
                    client.flush();
                }
                if (i > beforeStart + whileDialing && i % 100 == 0) {
                    Thread.sleep(2);
                }
            }
            client.flush();
            Eventually.poll(Duration.ofSeconds(30), Duration.ofMillis(20), () -> receiver.received().size(), n -> n >= total);
        } finally {
            client.close();
            server.close();
            loops.shutdown(0, 1);
        }
        List<Message> got = receiver.received();
        assertEquals(0, sender.unreachable.get(), "the peer was never unreachable");
        assertEquals(total, got.size(), "every message arrived");
        for (int i = 0; i < got.size(); i++) {
            assertEquals(i + 1, got.get(i).getIndex(), "message " + (i + 1) + " arrived in its place");
        }
    }
}
