package io.etcdj.server;

import io.etcdj.server.apply.ApplyResult;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/** Client calls waiting for their proposals to be applied, by request ID. */
final class Waiters {
    private final ConcurrentHashMap<Long, CompletableFuture<ApplyResult>> pending = new ConcurrentHashMap<>();

    CompletableFuture<ApplyResult> register(long id) {
        CompletableFuture<ApplyResult> f = new CompletableFuture<>();
        pending.put(id, f);
        f.whenComplete((r, e) -> pending.remove(id));
        return f;
    }

    void complete(long id, ApplyResult r) {
        CompletableFuture<ApplyResult> f = pending.remove(id);
        if (f != null) {
            f.complete(r);
        }
    }

    void failAll(Throwable t) {
        pending.values().forEach(f -> f.completeExceptionally(t));
    }
}
