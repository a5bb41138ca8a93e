package io.etcdj.server.watch;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/** Sends periodic progress notifications to watchers created with progress_notify. */
public final class ProgressNotifier implements AutoCloseable {
    /** What runs at every interval: a watch stream's progress notifications. */
    private final Set<Runnable> listeners = ConcurrentHashMap.newKeySet();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "watch-progress");
        t.setDaemon(true);
        return t;
    });

    public ProgressNotifier(long intervalMillis) {
        timer.scheduleAtFixedRate(() -> listeners.forEach(Runnable::run),
                intervalMillis, intervalMillis, TimeUnit.MILLISECONDS);
    }

    /** Runs {@code onInterval} at every interval from now until it is unregistered (by the same object). */
    public void register(Runnable onInterval) {
        listeners.add(onInterval);
    }

    public void unregister(Runnable onInterval) {
        listeners.remove(onInterval);
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
