package io.etcdj.server.watch;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/** Sends periodic progress notifications to watchers created with progress_notify. */
public final class ProgressNotifier implements AutoCloseable {
    /** A watch stream that wants progress notifications. */
    public interface Listener {
        void progressNotify();
    }

    private final Set<Listener> streams = ConcurrentHashMap.newKeySet();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "watch-progress");
        t.setDaemon(true);
        return t;
    });

    public ProgressNotifier(long intervalMillis) {
        timer.scheduleAtFixedRate(() -> streams.forEach(Listener::progressNotify),
                intervalMillis, intervalMillis, TimeUnit.MILLISECONDS);
    }

    public void register(Listener s) {
        streams.add(s);
    }

    public void unregister(Listener s) {
        streams.remove(s);
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
