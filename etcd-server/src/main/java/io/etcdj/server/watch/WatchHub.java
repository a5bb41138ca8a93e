package io.etcdj.server.watch;

import io.etcdj.api.mvccpb.Event;
import io.etcdj.api.mvccpb.KeyValue;
import io.etcdj.server.mvcc.ChangeEvent;
import io.etcdj.server.mvcc.MvccStore;
import io.etcdj.server.mvcc.ReadView;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongConsumer;

/**
 * The watchable store: delivers applied changes to watchers. Watchers that are caught up
 * ("synced") get events straight from the apply loop; watchers that start in the past or whose
 * stream is too slow ("unsynced") are fed from the store's history by the hub's own thread, so a
 * slow watcher never holds up writes. A watcher whose next revision was compacted is canceled
 * with the compact revision, as etcd does.
 */
public final class WatchHub implements AutoCloseable {
    private static final int CATCH_UP_BATCH = 1000;

    private final MvccStore store;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition work = lock.newCondition();
    private final Set<Watcher> synced = new LinkedHashSet<>();
    private final Set<Watcher> unsynced = new LinkedHashSet<>();
    private final Thread syncThread;
    private volatile boolean closed;

    public WatchHub(MvccStore store) {
        this.store = store;
        this.syncThread = new Thread(this::syncLoop, "watch-sync");
        this.syncThread.setDaemon(true);
        this.syncThread.start();
    }

    /**
     * Registers a watcher. {@code startRev <= 0} means "from the next write"; the effective start
     * is returned through the watcher.
     */
    public void add(Watcher w, long startRev) {
        add(w, startRev, current -> { });
    }

    /**
     * Registers {@code w}; {@code registered} hears, under the hub's lock and so before any event of
     * {@code w} is offered, the store's revision the watcher was registered at: a watcher without a
     * start revision sees every change after it, and nothing at or before it.
     */
    public void add(Watcher w, long startRev, LongConsumer registered) {
        lock.lock();
        try {
            long current = store.currentRevision();
            registered.accept(current);
            w.nextRev = startRev <= 0 ? current + 1 : startRev;
            if (w.nextRev > current) {
                w.synced = true;
                synced.add(w);
            } else {
                unsynced.add(w);
                work.signal();
            }
        } finally {
            lock.unlock();
        }
    }

    public void cancel(Watcher w) {
        lock.lock();
        try {
            w.canceled = true;
            synced.remove(w);
            unsynced.remove(w);
        } finally {
            lock.unlock();
        }
    }

    /** Whether every one of these watchers is caught up (progress reports are only sent then). */
    public boolean isSynced(Watcher w) {
        lock.lock();
        try {
            return w.synced;
        } finally {
            lock.unlock();
        }
    }

    public int watcherCount() {
        lock.lock();
        try {
            return synced.size() + unsynced.size();
        } finally {
            lock.unlock();
        }
    }

    /** Watchers still catching up from history (etcd's slow watchers). */
    public int unsyncedCount() {
        lock.lock();
        try {
            return unsynced.size();
        } finally {
            lock.unlock();
        }
    }

    /** Called by the apply loop after the batch that made {@code events} is visible to readers. */
    public void notify(List<ChangeEvent> events) {
        if (events.isEmpty()) {
            return;
        }
        lock.lock();
        try {
            if (synced.isEmpty()) {
                return;
            }
            Map<Watcher, List<ChangeEvent>> matched = new HashMap<>();
            for (Watcher w : synced) {
                for (ChangeEvent e : events) {
                    if (w.matches(e)) {
                        matched.computeIfAbsent(w, x -> new ArrayList<>()).add(e);
                    }
                }
            }
            long lastRev = events.get(events.size() - 1).revision();
            deliverSynced(matched, lastRev);
        } finally {
            lock.unlock();
        }
    }

    private void deliverSynced(Map<Watcher, List<ChangeEvent>> matched, long lastRev) {
        ReadView view = null;
        try {
            for (Watcher w : List.copyOf(synced)) {
                List<ChangeEvent> evs = matched.get(w);
                if (evs == null) {
                    // a watcher created from a future revision keeps it: only later events are its
                    w.nextRev = Math.max(w.nextRev, lastRev + 1);
                    continue;
                }
                if (w.wantsPrevKv() && view == null) {
                    view = store.openRead();
                }
                if (w.sink().offer(toEvents(evs, w.wantsPrevKv() ? view : null), lastRev)) {
                    w.nextRev = lastRev + 1;
                } else {
                    // Too slow: from here on it catches up from history on the hub's thread.
                    w.nextRev = evs.get(0).revision();
                    w.synced = false;
                    synced.remove(w);
                    unsynced.add(w);
                    work.signal();
                }
            }
        } finally {
            if (view != null) {
                view.close();
            }
        }
    }

    static List<Event> toEvents(List<ChangeEvent> changes, ReadView prevSource) {
        List<Event> out = new ArrayList<>(changes.size());
        for (ChangeEvent c : changes) {
            Event.Builder b = Event.newBuilder().setType(c.type()).setKv(c.kv());
            if (prevSource != null && c.prevRevision() != null) {
                KeyValue prev = prevSource.previous(c.prevRevision());
                if (prev != null) {
                    b.setPrevKv(prev);
                }
            }
            out.add(b.build());
        }
        return out;
    }

    /** The store was replaced wholesale (snapshot install): every watcher catches up from history. */
    public void resyncAll() {
        lock.lock();
        try {
            for (Watcher w : synced) {
                w.synced = false;
                unsynced.add(w);
            }
            synced.clear();
            work.signal();
        } finally {
            lock.unlock();
        }
    }

    /** Lets waiting catch-up work retry (e.g. a slow stream drained its queue). */
    public void kick() {
        lock.lock();
        try {
            work.signal();
        } finally {
            lock.unlock();
        }
    }

    private void syncLoop() {
        while (!closed) {
            List<Watcher> todo;
            lock.lock();
            try {
                if (unsynced.isEmpty()) {
                    work.await(100, TimeUnit.MILLISECONDS);
                }
                todo = new ArrayList<>(unsynced);
            } catch (InterruptedException e) {
                return;
            } finally {
                lock.unlock();
            }
            boolean progressed = false;
            for (Watcher w : todo) {
                progressed |= catchUp(w);
            }
            if (!progressed && !todo.isEmpty()) {
                lock.lock();
                try {
                    work.await(50, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    return;
                } finally {
                    lock.unlock();
                }
            }
        }
    }

    /** Feeds one unsynced watcher a batch from history; returns whether it moved forward. */
    private boolean catchUp(Watcher w) {
        long from;
        lock.lock();
        try {
            if (w.canceled || w.synced) {
                return false;
            }
            from = w.nextRev;
        } finally {
            lock.unlock();
        }
        List<ChangeEvent> batch = new ArrayList<>();
        long upTo;
        List<Event> events;
        try (ReadView view = store.openRead()) {
            if (from < view.compactRevision()) {
                lock.lock();
                try {
                    unsynced.remove(w);
                    w.canceled = true;
                } finally {
                    lock.unlock();
                }
                w.sink().compacted(view.compactRevision());
                return true;
            }
            upTo = view.revision();
            long[] lastSeen = {from - 1};
            view.history(from, upTo, e -> {
                if (batch.size() >= CATCH_UP_BATCH && e.revision() != lastSeen[0]) {
                    return false;
                }
                lastSeen[0] = e.revision();
                if (w.matches(e)) {
                    batch.add(e);
                }
                return true;
            });
            if (batch.size() >= CATCH_UP_BATCH) {
                upTo = lastSeen[0];
            }
            events = toEvents(batch, w.wantsPrevKv() ? view : null);
        }
        if (!events.isEmpty() && !w.sink().offer(events, upTo)) {
            return false;
        }
        lock.lock();
        try {
            if (w.canceled) {
                return true;
            }
            w.nextRev = upTo + 1;
            if (w.nextRev > store.currentRevision()) {
                unsynced.remove(w);
                synced.add(w);
                w.synced = true;
            }
        } finally {
            lock.unlock();
        }
        return true;
    }

    @Override
    public void close() {
        closed = true;
        syncThread.interrupt();
    }
}
