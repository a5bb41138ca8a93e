package io.etcdj.server.etcdserver;

import io.etcdj.server.mvcc.ReadView;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/** Reading the member's state: the linearizable barrier (ReadIndex) and a read of the store. */
interface Reads {
    /** Completes when this member has applied everything committed before the call. */
    CompletableFuture<Void> barrier();

    /**
     * Runs {@code read} on a view of the store at the current revision, never waiting on the
     * calling thread (see {@link EtcdServer}).
     */
    <T> CompletableFuture<T> read(Function<ReadView, T> read);
}
