package io.etcdj.server.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.etcdj.api.etcdserverpb.HashKVResponse;
import io.etcdj.api.etcdserverpb.LeaseTimeToLiveRequest;
import io.etcdj.api.etcdserverpb.LeaseTimeToLiveResponse;
import io.etcdj.harness.Eventually;
import io.etcdj.peerpb.LearnerReadyResponse;
import io.etcdj.peerpb.LeaseRenewResponse;
import io.etcdj.peerpb.MembersResponse;
import io.etcdj.peerpb.PeerAck;
import io.etcdj.peerpb.PeerGrpc;
import io.etcdj.peerpb.PeerMessage;
import io.etcdj.raftpb.Message;
import io.etcdj.raftpb.MessageType;
import io.etcdj.server.log.LogSink;
import io.etcdj.server.metrics.Metrics;
import io.grpc.Server;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A peer link delivers Raft messages in the order the Raft loop gave them, whether a message went
 * through the client's queue (while the stream opens) or straight onto the open stream.
 */
class PeerClientOrderTest {
    private static final long SELF = 1;
    private static final long PEER = 2;

    @Test
    void messagesArriveInOrderAcrossQueuedAndDirectSends() throws Exception {
        List<Long> received = new ArrayList<>();
        Server server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                .addService(new PeerGrpc.PeerImplBase() {
                    @Override
                    public StreamObserver<PeerMessage> stream(StreamObserver<PeerAck> out) {
                        return new StreamObserver<>() {
                            @Override
                            public void onNext(PeerMessage m) {
                                synchronized (received) {
                                    received.add(m.getMessage().getIndex());
                                }
                            }

                            @Override
                            public void onError(Throwable t) {
                            }

                            @Override
                            public void onCompleted() {
                                out.onCompleted();
                            }
                        };
                    }
                }).build().start();
        AtomicInteger unreachable = new AtomicInteger();
        String url = "http://127.0.0.1:" + server.getPort();
        PeerClient client = new PeerClient(PEER, new Handler(url, unreachable),
                target -> NettyChannelBuilder.forTarget(target.substring("http://".length())).usePlaintext(), Duration.ZERO,
                new Metrics(), LogSink.stderr(), false);
        int total = 20_000;
        int queued = 2_000;
        try {
            // the first ones wait in the queue (the client's thread is not running yet); the rest
            // are sent while that thread opens the stream and drains the queue, and race it, in
            // bursts short enough not to fill the queue (a full queue drops, as Raft tolerates)
            for (int i = 1; i <= total; i++) {
                if (i == queued + 1) {
                    client.start();
                }
                client.send(Message.newBuilder().setType(MessageType.MsgApp).setTo(PEER).setFrom(SELF).setIndex(i).build());
                if (i > queued && i % 100 == 0) {
                    Thread.sleep(2);
                }
            }
            Eventually.poll(Duration.ofSeconds(30), Duration.ofMillis(20), () -> {
                synchronized (received) {
                    return received.size();
                }
            }, n -> n >= total);
        } finally {
            client.close();
            server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
        synchronized (received) {
            assertEquals(0, unreachable.get(), "the peer was never unreachable");
            assertEquals(total, received.size(), "every message arrived");
            for (int i = 0; i < received.size(); i++) {
                assertEquals(i + 1, received.get(i), "message " + (i + 1) + " arrived in its place");
            }
        }
    }

    /** The member side a link needs: its ids and where the peer is; nothing else is called. */
    private record Handler(String url, AtomicInteger unreachable) implements PeerHandler {
        @Override
        public long memberId() {
            return SELF;
        }

        @Override
        public long clusterId() {
            return 7;
        }

        @Override
        public List<Long> remoteMembers() {
            return List.of(PEER);
        }

        @Override
        public List<String> peerUrls(long memberId) {
            return memberId == PEER ? List.of(url) : List.of();
        }

        @Override
        public boolean isRemoved(long memberId) {
            return false;
        }

        @Override
        public void receive(Message m) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void receiveSnapshot(Message m, Path dbFile) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Path snapshotTempDir() {
            throw new UnsupportedOperationException();
        }

        @Override
        public OutgoingSnapshot prepareSnapshot(Message m) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void unreachable(long memberId) {
            unreachable.incrementAndGet();
        }

        @Override
        public void snapshotSent(long memberId, boolean ok) {
        }

        @Override
        public void removedFromCluster() {
            throw new UnsupportedOperationException();
        }

        @Override
        public MembersResponse members() {
            throw new UnsupportedOperationException();
        }

        @Override
        public LeaseRenewResponse renewLease(long id) {
            throw new UnsupportedOperationException();
        }

        @Override
        public LeaseTimeToLiveResponse leaseTimeToLive(LeaseTimeToLiveRequest r) {
            throw new UnsupportedOperationException();
        }

        @Override
        public LearnerReadyResponse learnerReady(long memberId) {
            throw new UnsupportedOperationException();
        }

        @Override
        public HashKVResponse hashKv(long revision) {
            throw new UnsupportedOperationException();
        }
    }
}
