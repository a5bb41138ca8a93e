package io.etcdj.launcher.dashboard;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The charts' data for the last minutes: request rate and put latency per member (from
 * /metrics) and Raft term per member (from Status). Points carry a sequence number so the page
 * asks only for what it has not seen. Thread-safe.
 */
final class History {
    static final long KEEP_MILLIS = 10 * 60 * 1000;
    /** A term point is repeated this often even when unchanged, so the line reaches "now". */
    private static final long TERM_REPEAT_MILLIS = 2000;

    /** Requests per second and mean put latency (null: no put in the interval, or no histogram). */
    record RatePoint(long seq, String member, long at, double rps, Double putMillis) {}

    record TermPoint(long seq, String member, long at, long term) {}

    /** Points newer than a sequence number, and the newest number to ask from next time. */
    record Slice(long seq, List<RatePoint> rates, List<TermPoint> terms) {}

    private final Deque<RatePoint> rates = new ArrayDeque<>();
    private final Deque<TermPoint> terms = new ArrayDeque<>();
    private final Map<String, TermPoint> lastTerm = new HashMap<>();
    private long seq;

    synchronized void addRate(String member, long at, double rps, Double putMillis) {
        rates.addLast(new RatePoint(++seq, member, at, rps, putMillis));
        trim(at);
    }

    synchronized void addTerm(String member, long at, long term) {
        TermPoint last = lastTerm.get(member);
        if (last != null && last.term() == term && at - last.at() < TERM_REPEAT_MILLIS) {
            return;
        }
        TermPoint p = new TermPoint(++seq, member, at, term);
        terms.addLast(p);
        lastTerm.put(member, p);
        trim(at);
    }

    synchronized Slice since(long after) {
        List<RatePoint> r = new ArrayList<>();
        for (RatePoint p : rates) {
            if (p.seq() > after) {
                r.add(p);
            }
        }
        List<TermPoint> t = new ArrayList<>();
        for (TermPoint p : terms) {
            if (p.seq() > after) {
                t.add(p);
            }
        }
        return new Slice(seq, r, t);
    }

    private void trim(long now) {
        while (!rates.isEmpty() && now - rates.peekFirst().at() > KEEP_MILLIS) {
            rates.removeFirst();
        }
        while (!terms.isEmpty() && now - terms.peekFirst().at() > KEEP_MILLIS) {
            terms.removeFirst();
        }
    }
}
