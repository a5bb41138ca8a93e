package io.etcdj.raft;

import com.google.protobuf.ByteString;
import io.etcdj.raftpb.Message;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The leader's pending ReadIndex requests. Each one remembers the commit index at arrival and
 * which voters acknowledged a heartbeat carrying its context; once a quorum did, that request and
 * every earlier one are safe to answer (leadership was confirmed after they arrived).
 */
final class ReadIndexQueue {
    /** A pending request: the original message, the commit index to answer with, the acks so far. */
    record Pending(Message request, long index, Set<Long> acks) {
    }

    private final Map<ByteString, Pending> pending = new HashMap<>();
    private final List<ByteString> order = new ArrayList<>();

    static ByteString contextOf(Message m) {
        return m.getEntries(0).getData();
    }

    void add(long commitIndex, Message m) {
        ByteString ctx = contextOf(m);
        if (pending.containsKey(ctx)) {
            return;
        }
        pending.put(ctx, new Pending(m, commitIndex, new HashSet<>()));
        order.add(ctx);
    }

    /** Records an ack for {@code ctx}; returns the acks so far, or null if the context is unknown. */
    Set<Long> ack(long from, ByteString ctx) {
        Pending p = pending.get(ctx);
        if (p == null) {
            return null;
        }
        p.acks().add(from);
        return p.acks();
    }

    /** Removes and returns every request up to and including {@code ctx}, oldest first. */
    List<Pending> advance(ByteString ctx) {
        int at = order.indexOf(ctx);
        if (at < 0) {
            return List.of();
        }
        List<Pending> done = new ArrayList<>(at + 1);
        for (ByteString c : order.subList(0, at + 1)) {
            done.add(pending.remove(c));
        }
        order.subList(0, at + 1).clear();
        return done;
    }

    /** Context of the newest pending request (sent with heartbeats), or null. */
    ByteString lastPendingContext() {
        return order.isEmpty() ? null : order.get(order.size() - 1);
    }

    int size() {
        return order.size();
    }
}
