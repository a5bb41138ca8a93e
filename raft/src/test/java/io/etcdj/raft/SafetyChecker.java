package io.etcdj.raft;

import com.google.protobuf.ByteString;
import io.etcdj.raftpb.Entry;
import io.etcdj.raftpb.EntryType;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Checks Raft's safety properties across a {@link SimulatedNetwork}: election safety (and that
 * learners never lead or campaign), log matching, leader completeness, state-machine safety, and
 * ReadIndex linearizability.
 */
final class SafetyChecker implements TestNode.ApplyListener {
    private record Applied(Entry entry, long minTermWhenApplied) {
    }

    private record LogKey(long index, long term) {
    }

    private record LogValue(ByteString data, long prevTerm) {
    }

    private final Map<Long, Long> leaderOfTerm = new HashMap<>();
    /** Every entry applied anywhere, by index (the committed log as observed). */
    private final TreeMap<Long, Applied> applied = new TreeMap<>();
    private final Map<LogKey, LogValue> seenEntries = new HashMap<>();
    private final Map<String, Long> readRequired = new HashMap<>();
    private SimulatedNetwork net;
    /** Counters for the run summary, so a test run shows what it exercised. */
    static final LongAdder APPLIED_CONF_CHANGES = new LongAdder();
    static final LongAdder SNAPSHOTS_INSTALLED = new LongAdder();
    static final LongAdder READS_ANSWERED = new LongAdder();

    void attach(SimulatedNetwork network) {
        this.net = network;
    }

    @Override
    public void applied(long node, Entry e) {
        if (e.getType() == EntryType.EntryConfChange && e.getTerm() > 1) {
            APPLIED_CONF_CHANGES.increment();
        }
        long termNow = net == null ? e.getTerm() : net.nodes.get(node).status().term();
        Applied prev = applied.get(e.getIndex());
        if (prev == null) {
            applied.put(e.getIndex(), new Applied(e, termNow));
            return;
        }
        if (!prev.entry().equals(e)) {
            throw new AssertionError("state machine safety: node " + node + " applied " + brief(e) + " at index "
                    + e.getIndex() + " but another node applied " + brief(prev.entry()));
        }
        if (termNow < prev.minTermWhenApplied()) {
            applied.put(e.getIndex(), new Applied(e, termNow));
        }
    }

    @Override
    public void snapshotInstalled(long node, long index, long term) {
        SNAPSHOTS_INSTALLED.increment();
        Applied prev = applied.get(index);
        if (prev != null && prev.entry().getTerm() != term) {
            throw new AssertionError("state machine safety: node " + node + " installed a snapshot at " + index
                    + " term " + term + " but the applied entry there has term " + prev.entry().getTerm());
        }
    }

    /** A read requested now must return an index covering everything applied so far. */
    void readRequested(String ctx) {
        readRequired.put(ctx, applied.isEmpty() ? 0 : applied.lastKey());
    }

    void checkAll() {
        checkElectionSafety();
        for (TestNode n : net.nodes.values()) {
            checkLogMatching(n);
            checkReads(n);
        }
        checkLeaderCompleteness();
    }

    private void checkElectionSafety() {
        for (long id : net.upNodes()) {
            Status st = net.nodes.get(id).status();
            if (st.learner() && st.role() != RaftRole.FOLLOWER) {
                throw new AssertionError("learner " + id + " is " + st.role() + " in term " + st.term());
            }
            if (st.role() != RaftRole.LEADER) {
                continue;
            }
            Long prev = leaderOfTerm.putIfAbsent(st.term(), id);
            if (prev != null && prev != id) {
                throw new AssertionError("election safety: nodes " + prev + " and " + id + " both lead term " + st.term());
            }
        }
    }

    /**
     * Log matching, checked incrementally: an (index, term) pair must always name the same entry
     * with the same predecessor term, in every log, at every time.
     */
    private void checkLogMatching(TestNode n) {
        MemoryRaftStorage s = n.storage;
        long first = s.firstIndex();
        long last = s.lastIndex();
        if (last < first) {
            return;
        }
        List<Entry> ents = s.entries(first, last + 1, Long.MAX_VALUE);
        long prevTerm = s.term(first - 1);
        for (Entry e : ents) {
            LogKey key = new LogKey(e.getIndex(), e.getTerm());
            LogValue value = new LogValue(e.getData(), prevTerm);
            LogValue seen = seenEntries.putIfAbsent(key, value);
            if (seen != null && !seen.equals(value)) {
                throw new AssertionError("log matching: node " + n.id + " holds a different entry or predecessor at index "
                        + e.getIndex() + " term " + e.getTerm());
            }
            prevTerm = e.getTerm();
        }
    }

    /** Every entry applied while all appliers had a term below a leader's term is in that leader's log. */
    private void checkLeaderCompleteness() {
        for (long id : net.upNodes()) {
            TestNode n = net.nodes.get(id);
            Status st = n.status();
            if (st.role() != RaftRole.LEADER) {
                continue;
            }
            long first = n.storage.firstIndex();
            for (Map.Entry<Long, Applied> e : applied.tailMap(first, true).entrySet()) {
                if (e.getValue().minTermWhenApplied() >= st.term()) {
                    continue;
                }
                long index = e.getKey();
                long term = index <= n.storage.lastIndex() ? n.storage.term(index) : -1;
                if (term != e.getValue().entry().getTerm()) {
                    throw new AssertionError("leader completeness: leader " + id + " of term " + st.term()
                            + " lacks committed entry " + index + " (term " + e.getValue().entry().getTerm() + ")");
                }
            }
        }
    }

    private void checkReads(TestNode n) {
        for (ReadState rs : n.readStates) {
            String ctx = new String(rs.requestCtx(), StandardCharsets.UTF_8);
            Long required = readRequired.remove(ctx);
            READS_ANSWERED.increment();
            if (required != null && rs.index() < required) {
                throw new AssertionError("read index: node " + n.id + " answered " + ctx + " with index " + rs.index()
                        + " but index " + required + " was already applied when it was asked");
            }
        }
        n.readStates.clear();
    }

    int termsWithLeader() {
        return leaderOfTerm.size();
    }

    long maxApplied() {
        return applied.isEmpty() ? 0 : applied.lastKey();
    }

    private static String brief(Entry e) {
        return "{term " + e.getTerm() + ", " + e.getType() + ", '" + e.getData().toStringUtf8() + "'}";
    }
}
