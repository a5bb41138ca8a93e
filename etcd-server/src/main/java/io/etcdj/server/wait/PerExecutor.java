package io.etcdj.server.wait;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Hands work on many items to the executors they belong to with one task per executor (each in
 * the items' order): the answers of an applied batch, or the reads one confirmation releases, cost
 * one hand-off per event loop, not one per call. The share of an {@link InlineExecutor} whose own
 * thread this is runs at once instead, before {@link #answer} returns.
 */
public final class PerExecutor {
    private PerExecutor() {
    }

    public static <T> void answer(List<T> items, Function<T, Executor> executorOf, Consumer<T> work) {
        if (items.isEmpty()) {
            return;
        }
        Executor first = executorOf.apply(items.get(0));
        Map<Executor, List<T>> byExecutor = null;
        for (int i = 1; i < items.size() && byExecutor == null; i++) {
            if (executorOf.apply(items.get(i)) != first) {
                byExecutor = new IdentityHashMap<>();
            }
        }
        if (byExecutor == null) {
            runOn(first, items, work);
            return;
        }
        for (T item : items) {
            byExecutor.computeIfAbsent(executorOf.apply(item), e -> new ArrayList<>()).add(item);
        }
        byExecutor.forEach((on, mine) -> runOn(on, mine, work));
    }

    private static <T> void runOn(Executor on, List<T> items, Consumer<T> work) {
        if (on instanceof InlineExecutor here && here.runIfOwnThread(() -> items.forEach(work))) {
            return;
        }
        if (items.size() == 1) {
            T only = items.get(0);
            on.execute(() -> work.accept(only));
        } else {
            on.execute(() -> items.forEach(work));
        }
    }
}
