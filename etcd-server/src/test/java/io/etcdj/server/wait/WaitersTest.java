package io.etcdj.server.wait;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.server.apply.ApplyResult;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class WaitersTest {
    @Test
    void completesTheCallerOfARequestOnTheCompleterOnly() {
        List<Runnable> completions = new ArrayList<>();
        Waiters w = new Waiters(completions::add);
        CompletableFuture<ApplyResult> mine = w.register(1);
        w.complete(2, ApplyResult.ok(null, 5)); // another member's request: nobody waits here
        assertEquals(0, completions.size());
        w.complete(1, ApplyResult.ok(null, 7));
        assertFalse(mine.isDone(), "not on the applying thread");
        completions.forEach(Runnable::run);
        assertEquals(7, mine.join().revision());
        w.complete(1, ApplyResult.ok(null, 8));
        assertEquals(1, completions.size(), "a request is answered once");
    }

    @Test
    void failAllFailsWhatIsPending() {
        Waiters w = new Waiters(Runnable::run);
        CompletableFuture<ApplyResult> f = w.register(3);
        w.failAll(new IllegalStateException("stopped"));
        assertTrue(f.isCompletedExceptionally());
    }
}
