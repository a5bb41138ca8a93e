package io.etcdj.launcher.dashboard;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.function.LongSupplier;

/** The last {@value #KEEP} events, numbered so the page asks only for new ones. Thread-safe. */
final class EventLog {
    static final int KEEP = 500;

    private final Deque<ClusterEvent> events = new ArrayDeque<>();
    private final LongSupplier clock;
    private long seq;

    EventLog(LongSupplier clock) {
        this.clock = clock;
    }

    void add(String kind, String text) {
        add(clock.getAsLong(), kind, text);
    }

    synchronized void add(long at, String kind, String text) {
        events.addLast(new ClusterEvent(++seq, at, kind, text));
        if (events.size() > KEEP) {
            events.removeFirst();
        }
    }

    synchronized List<ClusterEvent> since(long after) {
        return events.stream().filter(e -> e.seq() > after).toList();
    }
}
