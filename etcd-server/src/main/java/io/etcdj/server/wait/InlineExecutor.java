package io.etcdj.server.wait;

import java.util.concurrent.Executor;

/**
 * An executor that, asked on its own thread, runs a batch of answers there and then instead of
 * queueing it behind the work it has queued already. An event loop is one: when a Raft turn on
 * the loop applies a batch of writes, the calls made on that loop are answered, and their
 * connections flushed, before the turn goes on to its bookkeeping, not in a task after it.
 */
public interface InlineExecutor extends Executor {
    /** Runs {@code batch} now and returns true when called on this executor's own thread; else runs nothing and returns false. */
    boolean runIfOwnThread(Runnable batch);
}
