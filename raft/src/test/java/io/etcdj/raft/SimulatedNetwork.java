package io.etcdj.raft;

import io.etcdj.raftpb.Message;
import io.etcdj.raftpb.MessageType;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.UnaryOperator;

/**
 * A seeded, lossy, reordering network of {@link TestNode}s. Time advances one unit per
 * {@link #step}; each message gets a random delivery time within the delay bound, may be dropped
 * or duplicated, and links can be cut. Crashed nodes keep their storage and lose everything else.
 */
final class SimulatedNetwork {
    /** A message on the wire; a lost snapshot still travels so its failure can be reported to the sender. */
    private record InFlight(Message message, long deliverAt, boolean lost) {
    }

    final TreeMap<Long, TestNode> nodes = new TreeMap<>();
    final Set<Long> down = new TreeSet<>();
    private final Set<Long> cutLinks = new HashSet<>();
    private final List<InFlight> inFlight = new ArrayList<>();
    private final Random rnd;
    private long now;
    double dropRate;
    double duplicateRate;
    int maxDelay;
    /** When false, the deliverable message that was sent first is delivered first. */
    boolean reorder = true;

    SimulatedNetwork(Random rnd, int size, long seed, UnaryOperator<RaftConfig.Builder> configurer, TestNode.ApplyListener listener) {
        this.rnd = rnd;
        List<Long> ids = new ArrayList<>();
        for (long id = 1; id <= size; id++) {
            ids.add(id);
        }
        for (long id : ids) {
            TestNode n = new TestNode(id, seed, configurer);
            n.listener = listener;
            n.node.bootstrap(ids);
            nodes.put(id, n);
        }
        flushAll();
    }

    /** Adds a node with empty storage; it joins once a conf change adds it and the leader reaches it. */
    TestNode addNode(long id, long seed, UnaryOperator<RaftConfig.Builder> configurer, TestNode.ApplyListener listener) {
        TestNode n = new TestNode(id, seed, configurer);
        n.listener = listener;
        nodes.put(id, n);
        return n;
    }

    long now() {
        return now;
    }

    boolean isUp(long id) {
        return !down.contains(id);
    }

    List<Long> upNodes() {
        List<Long> out = new ArrayList<>();
        for (long id : nodes.keySet()) {
            if (isUp(id)) {
                out.add(id);
            }
        }
        return out;
    }

    int pendingMessages() {
        return inFlight.size();
    }

    void cut(long a, long b) {
        cutLinks.add(link(a, b));
        cutLinks.add(link(b, a));
    }

    void isolate(long id) {
        for (long other : nodes.keySet()) {
            if (other != id) {
                cut(id, other);
            }
        }
    }

    void heal() {
        cutLinks.clear();
    }

    void crash(long id) {
        down.add(id);
    }

    void restart(long id) {
        if (down.remove(id)) {
            nodes.get(id).restart();
            flush(id);
        }
    }

    /** Advances time by one unit. */
    void step() {
        now++;
    }

    /** Hands every up node's pending Ready to the network. */
    void flushAll() {
        for (long id : nodes.keySet()) {
            if (isUp(id)) {
                flush(id);
            }
        }
    }

    void flush(long id) {
        for (Message m : nodes.get(id).processReady()) {
            send(m);
        }
    }

    private void send(Message m) {
        boolean lost = rnd.nextDouble() < dropRate;
        if (lost && m.getType() != MessageType.MsgSnap) {
            return;
        }
        inFlight.add(new InFlight(m, now + (maxDelay == 0 ? 0 : rnd.nextInt(maxDelay + 1)), lost));
        if (!lost && rnd.nextDouble() < duplicateRate) {
            inFlight.add(new InFlight(m, now + rnd.nextInt(maxDelay + 2), false));
        }
    }

    /** Delivers one message that is due (a random one when reordering); false if none is due. */
    boolean deliverOne() {
        List<Integer> due = new ArrayList<>();
        for (int i = 0; i < inFlight.size(); i++) {
            if (inFlight.get(i).deliverAt() <= now) {
                due.add(i);
                if (!reorder) {
                    break;
                }
            }
        }
        if (due.isEmpty()) {
            return false;
        }
        InFlight f = inFlight.remove((int) due.get(reorder ? rnd.nextInt(due.size()) : 0));
        Message m = f.message();
        long to = m.getTo();
        boolean delivered = !f.lost() && nodes.containsKey(to) && isUp(to) && !cutLinks.contains(link(m.getFrom(), to));
        if (delivered) {
            nodes.get(to).node.step(m);
            flush(to);
        }
        reportToSender(m, delivered);
        return true;
    }

    /** What a real transport tells the sender: snapshot fate always, unreachable peers sometimes. */
    private void reportToSender(Message m, boolean delivered) {
        long from = m.getFrom();
        if (!nodes.containsKey(from) || !isUp(from)) {
            return;
        }
        if (m.getType() == MessageType.MsgSnap) {
            nodes.get(from).node.reportSnapshot(m.getTo(), delivered);
        } else if (!delivered && rnd.nextInt(4) == 0) {
            nodes.get(from).node.reportUnreachable(m.getTo());
        } else {
            return;
        }
        flush(from);
    }

    /** Delivers everything that is due now. */
    void deliverAllDue() {
        while (deliverOne()) {
            // drain
        }
    }

    /** Async apply: the node applies up to {@code max} handed-out entries, then its new Ready goes out. */
    void applySome(long id, int max) {
        if (isUp(id)) {
            nodes.get(id).applyPending(max);
            flush(id);
        }
    }

    void tick(long id) {
        if (isUp(id)) {
            nodes.get(id).node.tick();
            flush(id);
        }
    }

    private static long link(long from, long to) {
        return from * 1_000_003L + to;
    }
}
