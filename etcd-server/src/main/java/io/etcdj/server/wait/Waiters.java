package io.etcdj.server.wait;

import io.etcdj.server.apply.ApplyResult;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Client calls waiting for their proposals to be applied, by request ID. Completing a call builds
 * and sends its response, so it runs on {@code completer}, not on the apply loop that every write
 * goes through.
 */
public final class Waiters {
    private final ConcurrentHashMap<Long, CompletableFuture<ApplyResult>> pending = new ConcurrentHashMap<>();
    private final java.util.concurrent.Executor completer;

    public Waiters(java.util.concurrent.Executor completer) {
        this.completer = completer;
    }

    /** Proposals waiting for their apply (etcd's etcd_server_proposals_pending). */
    public int pending() {
        return pending.size();
    }

    public CompletableFuture<ApplyResult> register(long id) {
        CompletableFuture<ApplyResult> f = new CompletableFuture<>();
        pending.put(id, f);
        f.whenComplete((r, e) -> pending.remove(id));
        return f;
    }

    public void complete(long id, ApplyResult r) {
        CompletableFuture<ApplyResult> f = pending.remove(id);
        if (f != null) {
            completer.execute(() -> f.complete(r));
        }
    }

    public void failAll(Throwable t) {
        pending.values().forEach(f -> f.completeExceptionally(t));
    }
}
