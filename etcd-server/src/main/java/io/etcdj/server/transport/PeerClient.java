package io.etcdj.server.transport;

import com.google.protobuf.ByteString;
import io.etcdj.peerpb.PeerAck;
import io.etcdj.peerpb.PeerGrpc;
import io.etcdj.peerpb.PeerMessage;
import io.etcdj.peerpb.SnapshotChunk;
import io.etcdj.peerpb.StreamHello;
import io.etcdj.raftpb.Message;
import io.etcdj.raftpb.MessageType;
import io.etcdj.server.log.Log;
import io.etcdj.server.log.LogSink;
import io.etcdj.server.membership.MemberIds;
import io.etcdj.server.metrics.Metrics;
import io.etcdj.server.metrics.PeerMetrics;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import io.prometheus.metrics.core.metrics.Counter;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The sending side towards one peer: one long-lived Raft stream ({@link RaftStream}), written
 * directly by the sender while it is open and nothing waits, else through a queue drained by this
 * client's own thread, which opens the stream at once and again every 100 ms while the peer does
 * not answer or after it broke (the peer is then reported unreachable so Raft slows down), as
 * etcd's stream reader does: the open stream is what makes the peer count as active. Snapshots
 * go on a gRPC call of their own with the backend file attached. The queue is bounded: when a
 * peer cannot keep up, messages are dropped, which Raft tolerates.
 */
final class PeerClient implements AutoCloseable {
    /** The member's logger (its sink, see MemberContext). */
    private final Log log;
    private static final int QUEUE_LIMIT = 4096;
    private static final int SNAPSHOT_CHUNK = 512 * 1024;
    /** etcd's stream reader dials a peer again 100 ms after a failed dial or a broken stream. */
    static final long REDIAL_MILLIS = 100;

    private final long peerId;
    private final PeerHandler handler;
    /** Builds a gRPC channel to a peer URL with the transport's TLS and source address (for snapshots). */
    private final Function<String, NettyChannelBuilder> dial;
    /** Opens a Raft stream to a peer URL with the transport's loops, TLS and source address. */
    private final StreamDialer streams;
    /** --raft-write-timeout in nanoseconds (0: none). */
    private final long writeTimeoutNanos;
    /** When the stream last stopped taking data (flow control), or -1 while it takes data. */
    private long blockedSince = -1;
    private final LinkedBlockingQueue<Message> queue = new LinkedBlockingQueue<>(QUEUE_LIMIT);
    /** Guards the stream and {@link #unsent}: the Raft loop's direct sends and this client's thread. */
    private final Object sendLock = new Object();
    /** Messages queued and not yet written (or dropped) by this client's thread. */
    private int unsent;
    private final Thread thread;
    /** Ends the wait before the next dial early: {@link #redialNow()}. */
    private final Semaphore redial = new Semaphore(0);
    private volatile boolean closed;
    private ManagedChannel channel;
    private String channelTarget;
    /** Set by this client's thread only; read by the Raft loop under {@link #sendLock}. */
    private volatile RaftStream stream;
    /** Whether the stream is open; set by this client's thread only. */
    private volatile boolean active;
    private final PeerMetrics.Link metrics;
    /** etcd_server_heartbeat_send_failures_total of the member. */
    private final Counter heartbeatFailures;

    /** How a client opens its Raft stream. */
    @FunctionalInterface
    interface StreamDialer {
        RaftStream open(String peerUrl, StreamHello hello) throws IOException;
    }

    PeerClient(long peerId, PeerHandler handler, Function<String, NettyChannelBuilder> dial, StreamDialer streams,
               Duration writeTimeout, Metrics memberMetrics, LogSink logs) {
        this(peerId, handler, dial, streams, writeTimeout, memberMetrics, logs, true);
    }

    /** With {@code start} false, messages queue until {@link #start()} (a test's way to have some waiting). */
    PeerClient(long peerId, PeerHandler handler, Function<String, NettyChannelBuilder> dial, StreamDialer streams,
               Duration writeTimeout, Metrics memberMetrics, LogSink logs, boolean start) {
        this.log = logs.logger("rafthttp/peer");
        this.peerId = peerId;
        this.handler = handler;
        this.dial = dial;
        this.streams = streams;
        this.writeTimeoutNanos = writeTimeout.toNanos();
        this.metrics = memberMetrics.peers.link(handler.memberId(), peerId);
        this.heartbeatFailures = memberMetrics.heartbeatSendFailures;
        this.thread = new Thread(this::run, "peer-" + MemberIds.hex(peerId));
        this.thread.setDaemon(true);
        if (start) {
            this.thread.start();
        }
    }

    void start() {
        thread.start();
    }

    /**
     * Sends on the caller's thread (the Raft loop) when the stream is open and nothing waits in
     * the queue: the stream only frames the message and hands it to the connection's event loop at
     * the next {@link #flush()}, so the hop through this client's own thread would add a wake-up to
     * every message of every commit. Everything else (no stream yet, a broken one, a snapshot, messages already waiting)
     * goes through the queue and this client's thread, which opens the stream. Messages
     * leave in the order they were given: the direct way is taken only when no queued message is
     * still unsent.
     */
    void send(Message m) {
        synchronized (sendLock) {
            if (unsent == 0 && m.getType() != MessageType.MsgSnap && sendNow(m)) {
                return;
            }
            if (!queue.offer(m)) {
                metrics.dropped(m.getType() == MessageType.MsgHeartbeat ? heartbeatFailures : null);
                handler.unreachable(peerId);
                return;
            }
            unsent++;
        }
    }

    /** Writes m on the open stream; false (nothing written) when there is none or it has failed. */
    private boolean sendNow(Message m) {
        if (stream == null || stream.error() != null) {
            return false;
        }
        try {
            checkWriteTimeout();
            metrics.sent(stream.write(m));
            return true;
        } catch (RuntimeException e) {
            // the queue's thread meets the same failure on its next send and handles it there
            return false;
        }
    }

    /** Sends what the Raft loop's last {@link #send} calls wrote on the stream: one flush per batch. */
    void flush() {
        synchronized (sendLock) {
            if (stream != null) {
                stream.flush();
            }
        }
    }

    private void run() {
        while (!closed) {
            if (stream == null) {
                if (!openStream()) {
                    return;
                }
                if (stream == null) {
                    continue;
                }
            }
            Message m;
            try {
                m = queue.poll(1, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                return;
            }
            try {
                if (m == null) {
                    checkIdleStream();
                } else if (m.getType() == MessageType.MsgSnap) {
                    sendSnapshot(m);
                    synchronized (sendLock) {
                        unsent--;
                    }
                } else {
                    synchronized (sendLock) {
                        unsent--;
                        RaftStream s = stream;
                        if (s == null) {
                            return; // closed meanwhile
                        }
                        metrics.sent(s.write(m));
                        if (queue.isEmpty()) {
                            s.flush();
                        }
                        checkWriteTimeout();
                        if (s.error() != null) {
                            throw s.error();
                        }
                    }
                }
            } catch (RuntimeException e) {
                if (!streamFailed(e, true)) {
                    return;
                }
            }
        }
    }

    /**
     * Opens the stream, as etcd's stream reader does: at once, and every {@link #REDIAL_MILLIS}
     * while the peer does not answer, whether or not a message waits, so a peer counts as active
     * ({@link #active()}) as soon as it listens. False when this client is to stop (closed, or
     * this member was removed); true otherwise, with {@link #stream} still null after a failed dial.
     */
    private boolean openStream() {
        RaftStream opened;
        try {
            // dialed outside the lock: a dial may take the dial timeout, and the Raft loop's
            // direct sends take the lock (they find no stream meanwhile and queue)
            opened = dial();
        } catch (RuntimeException e) {
            return streamFailed(e, false);
        }
        synchronized (sendLock) {
            if (closed) {
                opened.close();
                return false;
            }
            stream = opened;
        }
        if (!active) {
            active = true;
            metrics.active(true);
            log.info("peer became active", "peer-id", MemberIds.hex(peerId));
        }
        return true;
    }

    /** An idle stream: etcd's write deadline, and a failure the connection reported meanwhile (a refusal, a close). */
    private void checkIdleStream() {
        synchronized (sendLock) {
            checkWriteTimeout();
            RaftStream s = stream;
            if (s != null && s.error() != null) {
                throw s.error();
            }
        }
    }

    /**
     * A dial or the stream ({@code wasOpen}) failed: the stream is dropped with what waits for it
     * (Raft tolerates lost messages), the peer is reported unreachable when messages may have been
     * lost, and the next dial comes after {@link #REDIAL_MILLIS}. False when this client is to
     * stop: this member was removed from the cluster, or the wait was interrupted.
     */
    private boolean streamFailed(RuntimeException e, boolean wasOpen) {
        boolean dropped;
        synchronized (sendLock) {
            resetStream();
            dropped = unsent > 0;
            queue.clear();
            unsent = 0;
        }
        if (isRemovedError(e)) {
            handler.removedFromCluster();
            return false;
        }
        if (active) {
            active = false;
            metrics.active(false);
            log.warn("peer became inactive (message send to peer failed)", "peer-id", MemberIds.hex(peerId),
                    "error", PeerErrors.text(e));
        }
        if (dropped || wasOpen) {
            metrics.sendFailed();
            handler.unreachable(peerId);
        }
        try {
            redial.tryAcquire(REDIAL_MILLIS, TimeUnit.MILLISECONDS);
            return true;
        } catch (InterruptedException ie) {
            return false;
        }
    }

    /** The peer was heard from (it opened its stream to this member): a stream not open is dialed now. */
    void redialNow() {
        if (stream == null) {
            redial.release(); // at worst one dial comes early
        }
    }

    /** Whether the stream to the peer is open: what etcd counts as an active peer. */
    boolean active() {
        return active;
    }

    /**
     * Whether the stream is open and its connection has reported no failure: unlike {@link #active()},
     * false as soon as the connection closes (a killed peer), before this client's thread notices.
     */
    boolean streamOpen() {
        RaftStream s = stream;
        return s != null && s.error() == null;
    }

    /**
     * etcd's write deadline on a peer connection: a stream that has not taken more data (its
     * flow-control window stayed full) for --raft-write-timeout is reset, and the peer is
     * reported unreachable.
     */
    private void checkWriteTimeout() {
        if (writeTimeoutNanos <= 0 || stream == null) {
            blockedSince = -1;
            return;
        }
        if (stream.isWritable()) {
            blockedSince = -1;
            return;
        }
        long now = System.nanoTime();
        if (blockedSince < 0) {
            blockedSince = now;
        } else if (now - blockedSince >= writeTimeoutNanos) {
            blockedSince = -1;
            throw new StatusRuntimeException(Status.DEADLINE_EXCEEDED.withDescription("write to peer timed out after "
                    + Duration.ofNanos(writeTimeoutNanos).toMillis() + "ms (--raft-write-timeout)"));
        }
    }

    private static boolean isRemovedError(Throwable e) {
        Status s = Status.fromThrowable(e);
        return s.getCode() == Status.Code.FAILED_PRECONDITION && SenderCheck.REMOVED.equals(s.getDescription());
    }

    private PeerMessage envelope(Message m) {
        return PeerMessage.newBuilder().setClusterId(handler.clusterId()).setFrom(handler.memberId()).setMessage(m).build();
    }

    private ManagedChannel channel() {
        List<String> urls = handler.peerUrls(peerId);
        if (urls.isEmpty()) {
            throw new IllegalStateException("no peer URL known for member " + MemberIds.hex(peerId));
        }
        String target = urls.get(0);
        if (channel == null || !target.equals(channelTarget)) {
            if (channel != null) {
                channel.shutdownNow();
            }
            // No gRPC retries: this client reopens a failed stream itself, and a retriable call keeps
            // a copy of every Raft message it sends until the peer answers, wrapped in two more layers.
            channel = dial.apply(target).maxInboundMessageSize(64 << 20).disableRetry().build();
            channelTarget = target;
        }
        return channel;
    }

    /** Opens a stream to the peer (on this client's thread; only it sets {@link #stream}). */
    private RaftStream dial() {
        List<String> urls = handler.peerUrls(peerId);
        if (urls.isEmpty()) {
            throw new IllegalStateException("no peer URL known for member " + MemberIds.hex(peerId));
        }
        StreamHello hello = StreamHello.newBuilder().setClusterId(handler.clusterId()).setFrom(handler.memberId())
                .setTo(peerId).build();
        try {
            return streams.open(urls.get(0), hello);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void resetStream() {
        blockedSince = -1;
        if (stream != null) {
            stream.close();
            stream = null;
        }
    }

    private void sendSnapshot(Message raftMessage) {
        PeerHandler.OutgoingSnapshot snap = handler.prepareSnapshot(raftMessage);
        Message m = snap.message();
        Path file = snap.file();
        boolean ok = false;
        long start = System.nanoTime();
        try (InputStream in = Files.newInputStream(file)) {
            CountDownLatch done = new CountDownLatch(1);
            Throwable[] error = new Throwable[1];
            ManagedChannel ch = channel();
            ch.resetConnectBackoff();
            StreamObserver<SnapshotChunk> out = PeerGrpc.newStub(ch).snapshot(new StreamObserver<>() {
                @Override
                public void onNext(PeerAck value) {
                }

                @Override
                public void onError(Throwable t) {
                    error[0] = t;
                    done.countDown();
                }

                @Override
                public void onCompleted() {
                    done.countDown();
                }
            });
            out.onNext(SnapshotChunk.newBuilder().setHeader(envelope(m)).build());
            byte[] buf = new byte[SNAPSHOT_CHUNK];
            int n;
            while ((n = in.readNBytes(buf, 0, buf.length)) > 0) {
                out.onNext(SnapshotChunk.newBuilder().setData(ByteString.copyFrom(buf, 0, n)).build());
            }
            out.onCompleted();
            ok = done.await(5, TimeUnit.MINUTES) && error[0] == null;
            if (error[0] != null) {
                throw error[0] instanceof RuntimeException r ? r : new RuntimeException(error[0]);
            }
            log.info("sent database snapshot to peer", "peer-id", MemberIds.hex(peerId),
                    "snapshot-index", m.getSnapshot().getMetadata().getIndex());
        } catch (IOException | InterruptedException e) {
            throw new RuntimeException(e);
        } finally {
            metrics.snapshotSent(ok, start);
            handler.snapshotSent(peerId, ok);
            try {
                Files.deleteIfExists(file);
            } catch (IOException ignored) {
                // temp copy; removed on the next snapshot
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        thread.interrupt();
        synchronized (sendLock) {
            resetStream();
        }
        if (channel != null) {
            channel.shutdownNow();
        }
    }
}
