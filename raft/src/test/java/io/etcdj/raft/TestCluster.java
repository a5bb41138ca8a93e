package io.etcdj.raft;

import io.etcdj.raftpb.Entry;
import io.etcdj.raftpb.EntryType;
import io.etcdj.raftpb.Message;
import io.etcdj.raftpb.MessageType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
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

    /** When set, every message handed to the network is described here (for script tests). */
    Consumer<String> trace;

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
        boolean dropped = to == null || isolated.contains(m.getTo()) || isolated.contains(m.getFrom())
                || cutLinks.contains(m.getFrom() + "-" + m.getTo()) || dropFilter.test(m);
        if (trace != null) {
            trace.accept(describe(m) + (dropped ? " DROPPED" : ""));
        }
        if (!dropped) {
            to.node.step(m);
        }
    }

    /** One line per message: sender, receiver, type, term and the fields that matter for the type. */
    static String describe(Message m) {
        StringBuilder sb = new StringBuilder().append(m.getFrom()).append("->").append(m.getTo()).append(' ')
                .append(m.getType()).append(" term=").append(m.getTerm());
        switch (m.getType()) {
            case MsgApp -> {
                sb.append(" log=").append(m.getLogTerm()).append('/').append(m.getIndex()).append(" commit=").append(m.getCommit());
                if (m.getEntriesCount() > 0) {
                    sb.append(" entries=[");
                    for (int i = 0; i < m.getEntriesCount(); i++) {
                        Entry e = m.getEntries(i);
                        sb.append(i == 0 ? "" : " ").append(e.getTerm()).append('/').append(e.getIndex());
                        if (e.getType() == EntryType.EntryConfChange) {
                            sb.append(" conf");
                        } else if (!e.getData().isEmpty()) {
                            sb.append(' ').append(e.getData().toStringUtf8());
                        }
                    }
                    sb.append(']');
                }
            }
            case MsgAppResp -> {
                sb.append(" index=").append(m.getIndex());
                if (m.getReject()) {
                    sb.append(" rejected hint=").append(m.getRejectHint()).append(" hintTerm=").append(m.getLogTerm());
                }
            }
            case MsgVote, MsgPreVote -> sb.append(" log=").append(m.getLogTerm()).append('/').append(m.getIndex());
            case MsgVoteResp, MsgPreVoteResp -> sb.append(m.getReject() ? " rejected" : " granted");
            case MsgHeartbeat -> sb.append(" commit=").append(m.getCommit());
            case MsgSnap -> sb.append(" snapshot=").append(m.getSnapshot().getMetadata().getTerm()).append('/')
                    .append(m.getSnapshot().getMetadata().getIndex());
            case MsgReadIndexResp -> sb.append(" index=").append(m.getIndex());
            default -> {
                // type and term say it all
            }
        }
        return sb.toString();
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
        nodes.get(id).node.propose(data.getBytes(StandardCharsets.UTF_8));
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
