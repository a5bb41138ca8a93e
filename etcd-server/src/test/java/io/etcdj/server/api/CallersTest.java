package io.etcdj.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.server.auth.AuthInfo;
import io.grpc.Context;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The caller a service resolves from its gRPC call: identity and the time left before the call's deadline. */
class CallersTest {
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void stop() {
        timer.shutdownNow();
    }

    @Test
    void aCallWithoutCredentialsOrDeadlineIsAnonymousAndWaitsForTheRequestTimeout() {
        assertEquals(Caller.ANONYMOUS, Callers.caller());
        assertEquals(AuthInfo.NONE, Callers.caller().auth());
    }

    @Test
    void theCallersDeadlineBecomesTheTimeItStillWaits() throws Exception {
        AtomicReference<Caller> seen = new AtomicReference<>();
        Context.current().withDeadlineAfter(2, TimeUnit.SECONDS, timer).run(() -> seen.set(Callers.caller()));
        long left = seen.get().timeoutNanos();
        assertTrue(left > 0 && left <= TimeUnit.SECONDS.toNanos(2), "time left: " + left);
    }

    @Test
    void aCallerResolvedLaterOnAnotherThreadKeepsTheCallsDeadline() throws Exception {
        AtomicReference<Supplier<Caller>> deferred = new AtomicReference<>();
        Context.current().withDeadlineAfter(2, TimeUnit.SECONDS, timer).run(() -> deferred.set(Callers.deferred()));
        Caller later = CompletableFuture.supplyAsync(() -> deferred.get().get()).get(5, TimeUnit.SECONDS);
        assertTrue(later.timeoutNanos() <= TimeUnit.SECONDS.toNanos(2), "the deadline travels with the call's work");
        assertEquals(AuthInfo.NONE, later.auth());
    }

    @Test
    void aPassedDeadlineLeavesNoTimeRatherThanANegativeOne() {
        assertEquals(0, new Caller(AuthInfo.NONE, -5).timeoutNanos());
    }
}
