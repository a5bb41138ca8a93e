package io.etcdj.server.listen;

import io.netty.util.concurrent.EventExecutor;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The writes of one connection's answers, made on any thread and run on its event loop in the
 * order they were made, with one flush for as many of them as can share it.
 *
 * <p>A write made on the loop runs now, unless writes that other threads queued before it still
 * wait: then those run first. A put's Raft turn may run on the loop and apply the entry there,
 * and the watch event it offers must not overtake the watch stream's headers that a handler
 * thread queued: a grpc-java client that sees DATA before HEADERS fails the stream, and at the
 * late HEADERS ("Received headers on closed stream") drops the whole connection.
 *
 * <p>The flush waits: on the loop, for the end of the read (whose end flushes), of the batch of
 * answers running now, or of the running task (an applied batch's answers, completed on the
 * connection's loop, leave in one flush, not in three per call); off it, for the queued writes to
 * run, however many joined meanwhile.
 */
final class OrderedWrites {
    private final EventExecutor loop;
    private final Runnable flush;
    private final Queue<Runnable> queued = new ConcurrentLinkedQueue<>();
    /** The flush a write on the loop asks for, run at the end of the batch or task that wrote. */
    private final Runnable scheduledFlush;
    /** A task that runs the queued writes is on the loop's queue, or running. */
    private final AtomicBoolean drainScheduled = new AtomicBoolean();
    /** On the loop: a read runs, and the read's end flushes. */
    private boolean reading;
    /** On the loop: a flush is queued behind the running task. */
    private boolean flushScheduled;
    /** On the loop: the queued writes are running. */
    private boolean runningQueued;

    /** {@code flush}: writes out what the codec holds, on the loop. */
    OrderedWrites(EventExecutor loop, Runnable flush) {
        this.loop = loop;
        this.flush = flush;
        this.scheduledFlush = () -> {
            flushScheduled = false;
            flush.run();
        };
    }

    /** On the loop: a read started (true) or ended (false). */
    void reading(boolean now) {
        reading = now;
    }

    /** Runs {@code op} on the loop after every write made before it, and has it flushed. */
    void write(Runnable op) {
        if (loop.inEventLoop()) {
            if (queued.isEmpty() && !runningQueued) {
                op.run();
            } else {
                queued.add(op);
                runQueued();
            }
            flushSoon();
            return;
        }
        queued.add(op);
        if (drainScheduled.compareAndSet(false, true)) {
            loop.execute(this::drain);
        }
    }

    /**
     * On the loop: a flush at the end of the read, of the batch of answers running now (see
     * {@link AnsweringLoop}), or of the running task.
     */
    void flushSoon() {
        if (!reading && !flushScheduled) {
            flushScheduled = true;
            if (!(loop instanceof AnsweringLoop answering) || !answering.flushAfterBatch(scheduledFlush)) {
                loop.execute(scheduledFlush);
            }
        }
    }

    /**
     * Runs every queued write, then flushes once. The flag stays set while it runs, so answers
     * completed meanwhile (an applied batch closes its calls one after another) join this flush
     * instead of waking the loop once more each.
     */
    private void drain() {
        if (runQueued()) {
            flush.run(); // else a write on the loop ran them, and its flush is queued
        }
        drainScheduled.set(false);
        if (!queued.isEmpty() && drainScheduled.compareAndSet(false, true)) {
            loop.execute(this::drain);
        }
    }

    /**
     * The queued writes in order; one that a write's listener makes meanwhile joins the end of
     * the queue. False when there were none.
     */
    private boolean runQueued() {
        if (runningQueued) {
            return false;
        }
        runningQueued = true;
        boolean ran = false;
        try {
            for (Runnable op = queued.poll(); op != null; op = queued.poll()) {
                op.run();
                ran = true;
            }
        } finally {
            runningQueued = false;
        }
        return ran;
    }
}
