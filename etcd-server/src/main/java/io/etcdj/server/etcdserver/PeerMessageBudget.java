package io.etcdj.server.etcdserver;

import io.etcdj.raftpb.Message;
import io.etcdj.server.log.Log;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How many peer messages may wait for the Raft loop: while it is behind (a slow disk, a flood of
 * forwarded proposals) at most {@value #MAX_MESSAGES} messages and {@link #MAX_BYTES} bytes (etcd's
 * receive buffer per peer stream, rafthttp's recvBufSize); past that a message is dropped, as etcd's
 * transport drops what its full receive buffer cannot take, with etcd's warning at most once a second.
 */
final class PeerMessageBudget {
    static final int MAX_MESSAGES = 4096;
    /** Forwarded proposals and appends carry entries of up to a request's size. */
    static final long MAX_BYTES = 64L << 20;

    private final Log log;
    private final AtomicInteger messages = new AtomicInteger();
    private final AtomicLong bytes = new AtomicLong();
    private final AtomicLong lastDropWarnNanos = new AtomicLong();

    PeerMessageBudget(Log log) {
        this.log = log;
    }

    /** Counts {@code m} as waiting and returns its size, or -1 (warned) when it must be dropped. */
    long admit(Message m) {
        long size = m.getSerializedSize();
        int queued = messages.get();
        if (queued >= MAX_MESSAGES || (queued > 0 && bytes.get() + size > MAX_BYTES)) {
            warnDropped(m);
            return -1;
        }
        messages.incrementAndGet();
        bytes.addAndGet(size);
        return size;
    }

    /** A message admitted with {@code size} was stepped. */
    void stepped(long size) {
        messages.decrementAndGet();
        bytes.addAndGet(-size);
    }

    private void warnDropped(Message m) {
        long now = System.nanoTime();
        long last = lastDropWarnNanos.get();
        if (now - last >= 1_000_000_000L && lastDropWarnNanos.compareAndSet(last, now)) {
            log.warn("dropped internal Raft message since receiving buffer is full (overloaded network)",
                    "message-type", m.getType().name(), "from", Long.toHexString(m.getFrom()),
                    "queued-messages", messages.get(), "queued-bytes", bytes.get());
        }
    }
}
