package io.etcdj.server.api;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/** Sends periodic progress notifications to watchers created with progress_notify. */
public final class ProgressNotifier implements AutoCloseable {
    private final Set<WatchStream> streams = ConcurrentHashMap.newKeySet();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "watch-progress");
        t.setDaemon(true);
        return t;
    });

    public ProgressNotifier(long intervalMillis) {
        timer.scheduleAtFixedRate(() -> streams.forEach(WatchStream::progressNotify),
                intervalMillis, intervalMillis, TimeUnit.MILLISECONDS);
    }

    void register(WatchStream s) {
        streams.add(s);
    }

    void unregister(WatchStream s) {
        streams.remove(s);
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
