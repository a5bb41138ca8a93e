package io.etcdj.server.etcdserver;

import io.etcdj.server.error.EtcdError;
import io.etcdj.server.mvcc.MvccStore;
import io.etcdj.server.mvcc.ReadView;
import io.etcdj.server.read.ReadBarrier;
import io.etcdj.server.read.ReadDeadlines;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * The member's read path (etcd's linearizableReadNotify): the ReadIndex barrier, whose requests
 * the Raft loop batches and the apply loop releases, with its deadlines; and reads of the store
 * that never wait on the calling thread.
 */
final class LinearizableReads implements Reads, AutoCloseable {
    /** Where a read waits when its view of the store cannot be opened at once (see {@link #read}). */
    private final BlockingReads blockingReads = new BlockingReads();
    private final ReadBarrier barrier;
    /**
     * Without a leader a read cannot be confirmed: it fails after two election timeouts (as
     * proposals do) rather than at the end of the request timeout.
     */
    private final ReadDeadlines deadlines;
    private final MvccStore store;
    private final RaftLoop raft;
    private final Lifecycle lifecycle;

    LinearizableReads(ReadBarrier barrier, ReadDeadlines deadlines, MvccStore store, RaftLoop raft, Lifecycle lifecycle) {
        this.barrier = barrier;
        this.deadlines = deadlines;
        this.store = store;
        this.raft = raft;
        this.lifecycle = lifecycle;
    }

    /** Completes when this member has applied everything committed before the call (ReadIndex). */
    @Override
    public CompletableFuture<Void> barrier() {
        if (lifecycle.closed()) {
            return CompletableFuture.failedFuture(EtcdError.STOPPED.exception());
        }
        CompletableFuture<Void> f = deadlines.track(barrier.enqueue());
        raft.wakeHere(); // its callers (clients' calls, health checks, hash checks) hold none of the member's locks
        return f;
    }

    /**
     * Runs {@code read} on a view of the store at the current revision without ever waiting on
     * the calling thread: when the view cannot be opened at once (a write batch, a defragment),
     * the read is handed to the blocking-read threads and answered from there. Either way it sees
     * every write applied before the call.
     */
    @Override
    public <T> CompletableFuture<T> read(Function<ReadView, T> read) {
        ReadView now = store.tryOpenRead();
        if (now != null) {
            try (now) {
                return CompletableFuture.completedFuture(read.apply(now));
            } catch (RuntimeException e) {
                return CompletableFuture.failedFuture(e);
            }
        }
        return blockingReads.submit(() -> {
            try (ReadView v = store.openRead()) {
                return read.apply(v);
            }
        });
    }

    /** Stops the blocking-read threads; reads still waiting for their barrier fail as stopped. */
    @Override
    public void close() {
        blockingReads.close();
        barrier.failAll(EtcdError.STOPPED.exception());
    }
}
