package io.etcdj.server.listen;

import io.etcdj.server.wait.InlineExecutor;
import io.netty.channel.IoEventLoop;
import io.netty.channel.IoEventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SingleThreadIoEventLoop;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;

/**
 * A member's event loop, which answers a batch of calls at once when the batch is applied on it
 * ({@link InlineExecutor}). A leader of three hears a follower's acknowledgement on a peer
 * connection, and the Raft turn it brings applies the write on that loop; the put's answer used to
 * be a task queued behind the turn, so the answer left after the turn's commit notices to the
 * followers, its hard state's write and whatever else the loop had queued. Now the answers are
 * written while the batch runs, and each connection they wrote to is flushed once, as soon as the
 * batch returns ({@link OrderedWrites}): the batch's answers still share one flush per connection.
 */
final class AnsweringLoop extends SingleThreadIoEventLoop implements InlineExecutor {
    /** The flushes asked for by the batch running now. The loop's thread only. */
    private final List<Runnable> flushes = new ArrayList<>();
    /** A batch runs now. The loop's thread only. */
    private boolean inBatch;

    private AnsweringLoop(IoEventLoopGroup parent, Executor executor, IoHandlerFactory io) {
        super(parent, executor, io);
    }

    /** A group of {@code threads} such loops (0: Netty's default number). */
    static MultiThreadIoEventLoopGroup group(int threads, ThreadFactory threadFactory, IoHandlerFactory io) {
        return new MultiThreadIoEventLoopGroup(threads, threadFactory, io) {
            @Override
            protected IoEventLoop newChild(Executor executor, IoHandlerFactory ioHandlerFactory, Object... args) {
                return new AnsweringLoop(this, executor, ioHandlerFactory);
            }
        };
    }

    @Override
    public boolean runIfOwnThread(Runnable batch) {
        if (!inEventLoop()) {
            return false;
        }
        if (inBatch) {
            batch.run(); // a batch answered by another's answers: its flushes join the outer batch's
            return true;
        }
        inBatch = true;
        try {
            batch.run();
        } finally {
            inBatch = false; // a write a flush's listener makes is flushed by a task, as outside a batch
            try {
                for (Runnable flush : flushes) {
                    flush.run();
                }
            } finally {
                flushes.clear();
            }
        }
        return true;
    }

    /**
     * On the loop's thread: while a batch runs, queues {@code flush} to run when it returns and
     * returns true; returns false when no batch runs (the caller queues its flush as a task).
     */
    boolean flushAfterBatch(Runnable flush) {
        if (!inBatch) {
            return false;
        }
        flushes.add(flush);
        return true;
    }
}
