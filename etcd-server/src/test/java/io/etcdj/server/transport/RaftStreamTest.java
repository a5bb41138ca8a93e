package io.etcdj.server.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.etcdj.harness.Eventually;
import io.etcdj.harness.FreePorts;
import io.etcdj.peerpb.MembersResponse;
import io.etcdj.peerpb.StreamHello;
import io.etcdj.raftpb.Entry;
import io.etcdj.raftpb.Message;
import io.etcdj.raftpb.MessageType;
import io.etcdj.server.listen.IoLoops;
import io.etcdj.server.log.LogSink;
import io.etcdj.server.metrics.Metrics;
import io.grpc.Status;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The peer port as a member's peers see it: Raft streams and gRPC calls on one port, a stream from
 * another cluster, for another member or from a removed member refused with the reason, and etcd's
 * read deadline (a silent connection dropped, an idle stream kept open by its keep-alives).
 */
class RaftStreamTest {
    private static final long SELF = 1;
    private static final long PEER = 2;
    private static final long CLUSTER = 7;

    private final FakeMember receiver = new FakeMember(PEER, CLUSTER);
    private final String url = "http://127.0.0.1:" + FreePorts.pick();
    private final PeerTransport server = new PeerTransport(receiver, new Metrics(), LogSink.stderr());
    private final IoLoops loops = IoLoops.forTcp("test-peer", 0);

    @AfterEach
    void stop() {
        server.close();
        loops.shutdown(0, 1);
    }

    private void listen(Duration readTimeout) throws Exception {
        server.useLinks(new PeerLinks(readTimeout, Duration.ofSeconds(5), null, true, Duration.ofSeconds(2)));
        server.listen(List.of(URI.create(url)));
    }

    private RaftStream open(StreamHello hello, Duration readTimeout) throws Exception {
        return plaintextDialer(new PeerLinks(readTimeout, Duration.ofSeconds(5), null, true, Duration.ofSeconds(2)), loops)
                .open(url, hello);
    }

    /** A dialer of plaintext TCP streams on {@code loops} (no TLS, no unix socket in these tests). */
    static RaftStreamDialer plaintextDialer(PeerLinks links, IoLoops loops) {
        return new RaftStreamDialer(() -> links, () -> loops, () -> {
            throw new AssertionError("no unix socket in these tests");
        }, () -> null);
    }

    private static StreamHello hello(long cluster, long from, long to) {
        return StreamHello.newBuilder().setClusterId(cluster).setFrom(from).setTo(to).build();
    }

    private static Message app(long index) {
        return Message.newBuilder().setType(MessageType.MsgApp).setFrom(SELF).setTo(PEER).setIndex(index).build();
    }

    @Test
    void messagesAndGrpcCallsShareThePeerPort() throws Exception {
        listen(Duration.ofSeconds(5));
        RaftStream s = open(hello(CLUSTER, SELF, PEER), Duration.ofSeconds(5));
        try {
            s.write(app(1));
            s.write(app(2));
            s.flush();
            Eventually.poll(Duration.ofSeconds(10), Duration.ofMillis(10), () -> receiver.received().size(), n -> n == 2);
            MembersResponse members = PeerTransport.fetchMembers(url, 5_000, null);
            assertEquals(CLUSTER, members.getClusterId(), "a gRPC call on the same port is answered");
            s.write(app(3));
            s.flush();
            Eventually.poll(Duration.ofSeconds(10), Duration.ofMillis(10), () -> receiver.received().size(), n -> n == 3);
            assertEquals(List.of(1L, 2L, 3L), receiver.received().stream().map(Message::getIndex).toList());
            assertNull(s.error(), "the stream is still open");
            assertTrue(s.writesDirectly(), "a plaintext stream is written by its caller");
        } finally {
            s.close();
        }
    }

    @Test
    void largeBatchesThatFillTheSocketArriveWholeAndInOrder() throws Exception {
        listen(Duration.ofSeconds(5));
        RaftStream s = open(hello(CLUSTER, SELF, PEER), Duration.ofSeconds(5));
        int total = 400;
        ByteString payload = ByteString.copyFrom(new byte[256 * 1024]);
        try {
            // 100 MB written faster than a loopback socket drains: some batches go through the
            // event loop, and the ones after them must not overtake them
            for (int i = 1; i <= total; i++) {
                s.write(app(i).toBuilder().addEntries(Entry.newBuilder().setIndex(i).setData(payload)).build());
                if (i % 3 == 0) {
                    s.flush();
                }
            }
            s.flush();
            Eventually.poll(Duration.ofSeconds(60), Duration.ofMillis(20), () -> receiver.received().size(), n -> n >= total);
            List<Message> got = receiver.received();
            assertEquals(total, got.size());
            for (int i = 0; i < total; i++) {
                assertEquals(i + 1, got.get(i).getIndex(), "message " + (i + 1) + " arrived in its place");
                assertEquals(payload.size(), got.get(i).getEntries(0).getData().size(), "message " + (i + 1) + " whole");
            }
            assertNull(s.error());
            assertTrue(s.handedToLoop() > 0, "some batches went through the event loop");
        } finally {
            s.close();
        }
    }

    /**
     * A peer that goes away closes the stream's socket on its event loop, and the next connection
     * the process makes may get the same descriptor number at once; a batch flushed after that
     * must not reach that connection (a client of the member would read Raft frames as HTTP/2).
     */
    @Test
    void aBatchAfterThePeerLeftReachesNoConnectionMadeSince() throws Exception {
        assertTrue(loops.isNative(), "Netty's epoll transport loads here");
        aBatchAfterThePeerLeftReachesNoConnectionMadeSince(loops);
    }

    /** The same where Netty's native transport does not load: the TCP loops are NIO ones. */
    @Test
    void aBatchAfterThePeerLeftReachesNoConnectionMadeSinceOnNio() throws Exception {
        IoLoops nio = IoLoops.forUnix("test-nio");
        try {
            assertFalse(nio.isNative());
            aBatchAfterThePeerLeftReachesNoConnectionMadeSince(nio);
        } finally {
            nio.shutdown(0, 1);
        }
    }

    private void aBatchAfterThePeerLeftReachesNoConnectionMadeSince(IoLoops tcp) throws Exception {
        List<Socket> since = new ArrayList<>();
        try (ServerSocket peer = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
                ServerSocket other = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            RaftStream s = plaintextDialer(PeerLinks.DEFAULTS, tcp).open("http://127.0.0.1:" + peer.getLocalPort(),
                    hello(CLUSTER, SELF, PEER));
            try {
                assertTrue(s.writesDirectly(), "the caller writes to the socket itself");
                peer.accept().close();
                Eventually.poll(Duration.ofSeconds(10), Duration.ofMillis(5), s::error, e -> e != null);
                for (int i = 0; i < 16; i++) { // each end a new descriptor: the stream's freed number among them
                    since.add(new Socket(other.getInetAddress(), other.getLocalPort()));
                    since.add(other.accept());
                }
                s.write(app(1));
                s.flush();
                for (Socket c : since) {
                    c.setSoTimeout(50);
                    byte[] got = new byte[64];
                    int n;
                    try {
                        n = c.getInputStream().read(got);
                    } catch (SocketTimeoutException quiet) {
                        n = 0;
                    }
                    assertEquals(0, n, "bytes reached a connection made after the peer left: "
                            + HexFormat.of().formatHex(got, 0, Math.max(n, 0)));
                }
                assertNotNull(s.error(), "the stream knows its peer left");
                assertTrue(s.error().getMessage().contains("connection closed"), String.valueOf(s.error()));
            } finally {
                s.close();
            }
        } finally {
            for (Socket c : since) {
                c.close();
            }
        }
    }

    @Test
    void aStreamFromAnotherClusterIsRefusedWithTheReason() throws Exception {
        listen(Duration.ofSeconds(5));
        assertRefused(hello(CLUSTER + 1, SELF, PEER), "cluster ID mismatch");
    }

    @Test
    void aStreamMeantForAnotherMemberIsRefused() throws Exception {
        listen(Duration.ofSeconds(5));
        assertRefused(hello(CLUSTER, SELF, PEER + 1), "raft-to mismatch");
    }

    @Test
    void aRemovedMemberLearnsItWasRemoved() throws Exception {
        listen(Duration.ofSeconds(5));
        receiver.removed.add(SELF);
        FakeMember sender = new FakeMember(SELF, CLUSTER);
        sender.urls.put(PEER, url);
        PeerClient client = new PeerClient(PEER, sender, target -> {
            throw new AssertionError("no gRPC call expected");
        }, plaintextDialer(PeerLinks.DEFAULTS, loops), Duration.ZERO, new Metrics(), LogSink.stderr());
        try {
            for (int i = 1; i <= 50 && !sender.toldRemoved.get(); i++) {
                client.send(app(i));
                client.flush();
                Thread.sleep(50);
            }
            assertTrue(sender.toldRemoved.get(), "the sender was told it was removed");
            assertEquals(List.of(), receiver.received(), "nothing from a removed member reached Raft");
        } finally {
            client.close();
        }
    }

    private void assertRefused(StreamHello hello, String reason) throws Exception {
        RaftStream s = open(hello, Duration.ofSeconds(5));
        try {
            s.write(app(1));
            s.flush();
            RuntimeException e = Eventually.poll(Duration.ofSeconds(10), Duration.ofMillis(10), s::error, x -> x != null);
            Status status = Status.fromThrowable(e);
            assertEquals(Status.Code.FAILED_PRECONDITION, status.getCode(), String.valueOf(e));
            assertEquals(reason, status.getDescription());
            assertEquals(List.of(), receiver.received(), "nothing reached Raft");
        } finally {
            s.close();
        }
    }

    @Test
    void aSilentStreamIsDroppedAfterTheReadTimeoutAndAnIdleOneIsKeptOpen() throws Exception {
        listen(Duration.ofMillis(600));
        URI u = URI.create(url);
        try (Socket silent = new Socket(u.getHost(), u.getPort())) {
            OutputStream out = silent.getOutputStream();
            out.write(RaftStreamFrames.PREFACE);
            byte[] hi = hello(CLUSTER, SELF, PEER).toByteArray();
            out.write(ByteBuffer.allocate(4).putInt(hi.length).array());
            out.write(hi);
            out.flush();
            silent.setSoTimeout(10_000);
            InputStream in = silent.getInputStream();
            long start = System.nanoTime();
            assertEquals(-1, in.read(), "the member closed the silent connection");
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertTrue(millis >= 400, "not before the read timeout: " + millis + " ms");
        }
        RaftStream idle = open(hello(CLUSTER, SELF, PEER), Duration.ofMillis(600));
        try {
            Thread.sleep(2_000);
            assertNull(idle.error(), "keep-alives kept the idle stream open");
            idle.write(app(9));
            idle.flush();
            Eventually.poll(Duration.ofSeconds(10), Duration.ofMillis(10), () -> receiver.received().size(), n -> n == 1);
        } finally {
            idle.close();
        }
    }
}
