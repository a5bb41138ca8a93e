package io.etcdj.server.raft;

import io.etcdj.raftpb.Message;
import io.etcdj.raftpb.MessageType;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * A synchronous in-memory network for scenario tests: messages are delivered in order until the
 * cluster is quiet. Links can be cut, nodes isolated, and messages filtered.
 */
final class TestCluster {
    final TreeMap<Long, TestNode> nodes = new TreeMap<>();
    private final Set<Long> isolated = new HashSet<>();
    private final Set<String> cutLinks = new HashSet<>();
    private Predicate<Message> dropFilter = m -> false;
    private final Deque<Message> inFlight = new ArrayDeque<>();

    /** A cluster of {@code voters} voters (ids 1..n) bootstrapped together, default settings. */
    static TestCluster of(int voters) {
        return of(voters, b -> b);
    }

    static TestCluster of(int voters, UnaryOperator<RaftConfig.Builder> configurer) {
        TestCluster c = new TestCluster();
        List<Long> ids = new ArrayList<>();
        for (long id = 1; id <= voters; id++) {
            ids.add(id);
        }
        for (long id : ids) {
            TestNode n = new TestNode(id, 7, configurer);
            n.node.bootstrap(ids);
            c.nodes.put(id, n);
        }
        c.stabilize();
        return c;
    }

    /** Adds a node with empty storage (to be added through a conf change). */
    TestNode addEmptyNode(long id, UnaryOperator<RaftConfig.Builder> configurer) {
        TestNode n = new TestNode(id, 7, configurer);
        nodes.put(id, n);
        return n;
    }

    TestNode node(long id) {
        return nodes.get(id);
    }

    void isolate(long id) {
        isolated.add(id);
    }

    void cut(long a, long b) {
        cutLinks.add(a + "-" + b);
        cutLinks.add(b + "-" + a);
    }

    void heal() {
        isolated.clear();
        cutLinks.clear();
        dropFilter = m -> false;
    }

    void drop(Predicate<Message> filter) {
        dropFilter = filter;
    }

    void dropType(MessageType type) {
        drop(m -> m.getType() == type);
    }

    /** Delivers messages and handles Ready until nothing changes. */
    void stabilize() {
        for (int round = 0; round < 100_000; round++) {
            for (TestNode n : nodes.values()) {
                inFlight.addAll(n.processReady());
            }
            if (inFlight.isEmpty()) {
                return;
            }
            while (!inFlight.isEmpty()) {
                deliver(inFlight.poll());
            }
        }
        throw new AssertionError("cluster did not stabilize");
    }

    private void deliver(Message m) {
        TestNode to = nodes.get(m.getTo());
        if (to == null || isolated.contains(m.getTo()) || isolated.contains(m.getFrom())
                || cutLinks.contains(m.getFrom() + "-" + m.getTo()) || dropFilter.test(m)) {
            return;
        }
        to.node.step(m);
    }

    /** Ticks the given nodes (all when none given) {@code n} times, stabilizing after each tick. */
    void tick(int n, long... ids) {
        Collection<Long> which = ids.length == 0 ? nodes.keySet() : toList(ids);
        for (int i = 0; i < n; i++) {
            for (long id : which) {
                nodes.get(id).node.tick();
            }
            stabilize();
        }
    }

    void campaign(long id) {
        nodes.get(id).node.campaign();
        stabilize();
    }

    void propose(long id, String data) {
        nodes.get(id).node.propose(data.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        stabilize();
    }

    /** The single node that considers itself leader, or null. */
    TestNode leader() {
        TestNode leader = null;
        for (TestNode n : nodes.values()) {
            if (n.isLeader() && !isolated.contains(n.id)) {
                leader = n;
            }
        }
        return leader;
    }

    private static List<Long> toList(long[] ids) {
        List<Long> out = new ArrayList<>();
        for (long id : ids) {
            out.add(id);
        }
        return out;
    }
}
