package io.etcdj.server.listen;

import java.util.function.Supplier;

/**
 * One member's TCP event loops, shared by its client port, its peer port and its connections to
 * its peers: made on first use, shut down by their owner once every user has closed.
 *
 * <p>Why one set: a leader hears its followers' acknowledgements on a peer connection and answers
 * the client on the client's connection. With loops of their own per port, every answered write
 * and every confirmed linearizable read crossed from a peer loop to a client loop, a kernel
 * wake-up and a context switch; with shared loops, the connections that land on the same loop
 * skip it. On two cores, three members' worth of threads also compete less (docs/decisions.md,
 * "One set of event loops per member").
 */
public final class SharedTcpLoops implements Supplier<IoLoops>, AutoCloseable {
    private final String name;
    private final int threads;
    /** Made on first use; guarded by this. */
    private IoLoops loops;
    private boolean closed;

    /** {@code threads} loops (0: Netty's default number) whose threads are named {@code name-io-*} and {@code name-accept-*}. */
    public SharedTcpLoops(String name, int threads) {
        this.name = name;
        this.threads = threads;
    }

    /** The loops, made now if this is the first use. */
    @Override
    public synchronized IoLoops get() {
        if (closed) {
            throw new IllegalStateException("the member's event loops are shut down");
        }
        if (loops == null) {
            loops = IoLoops.forTcp(name, threads);
        }
        return loops;
    }

    /** Shuts the loops down (if they were ever made): for the owner, after every user has closed. */
    @Override
    public synchronized void close() {
        closed = true;
        if (loops != null) {
            loops.shutdown(0, 2);
        }
    }
}
