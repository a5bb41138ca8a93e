package io.etcdj.server.etcdserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.etcdj.raft.MemoryRaftStorage;
import io.etcdj.raft.RaftConfig;
import io.etcdj.raft.RawNode;
import io.etcdj.raftpb.Entry;
import io.etcdj.raftpb.HardState;
import io.etcdj.raftpb.Message;
import io.etcdj.raftpb.MessageType;
import io.etcdj.raftpb.Snapshot;
import io.etcdj.server.clock.Clock;
import io.etcdj.server.error.EtcdError;
import io.etcdj.server.log.LogSink;
import io.etcdj.server.read.ReadBarrier;
import io.etcdj.server.snap.Snapshotter;
import io.etcdj.server.wal.Wal;
import io.etcdj.server.wal.WalOptions;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Raft loop handles each Ready in the order the core requires: what a message promises (a
 * vote, a commit index) is in durable storage before the message is sent, a leader's appends may
 * go out while it writes them, and committed entries go to the apply loop only once durable here.
 */
class RaftLoopTest {
    @TempDir
    Path dir;
    private RaftLoop loop;
    private final List<String> violations = new CopyOnWriteArrayList<>();
    private final LinkedBlockingQueue<Message> sent = new LinkedBlockingQueue<>();
    private final LinkedBlockingQueue<List<Entry>> committed = new LinkedBlockingQueue<>();
    /** What the loop did, in order: "applied I" (entries up to I handed to apply), "announced C" (a message carrying commit C). */
    private final List<String> steps = new CopyOnWriteArrayList<>();
    /** The thread that first sent each entry (by its data) to a peer. */
    private final Map<String, String> sentOn = new ConcurrentHashMap<>();
    /** The member the peer network cannot reach now (its stream closed), 0 for none. */
    private volatile long unreachable;

    @AfterEach
    void close() {
        if (loop != null) {
            loop.close();
        }
    }

    private RaftLoop start(MemoryRaftStorage storage) throws Exception {
        return start(storage, 50);
    }

    /** Member 1 of three, ticking every 10 ms; {@code electionMillis} sets how long a proposal may wait for a leader. */
    private RaftLoop start(MemoryRaftStorage storage, long electionMillis) throws Exception {
        // no check-quorum: the followers here are the test's hand, silent between its steps, and a
        // leader that checks its quorum would step down after one election timeout on a slow machine
        RawNode node = RawNode.create(RaftConfig.builder().id(1).electionTick(5).heartbeatTick(1).preVote(false)
                .checkQuorum(false).asyncApply(true).build(), storage);
        node.bootstrap(List.of(1L, 2L, 3L));
        Wal wal = Wal.create(dir.resolve("wal"), new byte[0], WalOptions.DEFAULT);
        PeerSender peers = new PeerSender() {
            @Override
            public boolean reachable(long id) {
                return id != unreachable;
            }

            @Override
            public void send(List<Message> messages) {
                for (Message m : messages) {
                    HardState hs = storage.initialState().hardState();
                    if (m.getType() == MessageType.MsgVote && (hs.getTerm() < m.getTerm() || hs.getVote() != 1)) {
                        violations.add("vote request for term " + m.getTerm() + " sent before the vote was durable: " + hs);
                    }
                    // a leader sends its entries while it writes them (as etcd), but never announces a
                    // commit its own durable log does not hold
                    if (m.getType() == MessageType.MsgApp && m.getCommit() > storage.lastIndex()) {
                        violations.add("append announcing commit " + m.getCommit() + " sent before the leader's log held it (last "
                                + storage.lastIndex() + ")");
                    }
                    if (m.getCommit() > 0) {
                        steps.add("announced " + m.getCommit());
                    }
                    sent.add(m);
                    for (Entry e : m.getEntriesList()) {
                        sentOn.putIfAbsent(e.getData().toStringUtf8(), Thread.currentThread().getName());
                    }
                }
            }
        };
        RaftLoop.Listener listener = new RaftLoop.Listener() {
            @Override
            public void leaderChanged(long lead, long term, boolean isLeader) {
            }

            @Override
            public void committed(List<Entry> entries, long term) {
                long last = entries.get(entries.size() - 1).getIndex();
                if (last > storage.lastIndex()) {
                    violations.add("entries up to " + last + " handed to apply before they were durable (last " + storage.lastIndex()
                            + ")");
                }
                steps.add("applied " + last);
                committed.add(entries);
            }

            @Override
            public void snapshotInstalled(Snapshot snapshot) {
            }

            @Override
            public void fatal(Throwable t) {
                violations.add("fatal: " + t);
            }
        };
        RaftLoop l = new RaftLoop(node, storage, wal, new Snapshotter(dir.resolve("snap")), peers,
                new ReadBarrier(Runnable::run), listener, 10, electionMillis, Clock.SYSTEM, Runnable::run, Failpoints.NONE,
                LogSink.stderr());
        l.start();
        return l;
    }

    private Message next(MessageType type) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            Message m = sent.poll(100, TimeUnit.MILLISECONDS);
            if (m != null && m.getType() == type) {
                return m;
            }
        }
        throw new AssertionError("no " + type + " sent");
    }

    /** The term member 1 leads in and the index of its term's empty entry. */
    private record Elected(long term, long emptyEntry) {
    }

    /**
     * Starts member 1, has member 2 vote for it and {@code acknowledging} acknowledge its term's
     * empty entry (so the leader streams appends to them), and waits for that entry's commit.
     */
    private Elected elect(MemoryRaftStorage storage, long... acknowledging) throws Exception {
        loop = start(storage);
        committed.poll(10, TimeUnit.SECONDS); // the bootstrap's conf changes
        loop.appliedTo(3, true);
        Message vote = next(MessageType.MsgVote);
        loop.step(List.of(Message.newBuilder().setType(MessageType.MsgVoteResp).setFrom(2).setTo(1).setTerm(vote.getTerm()).build()));
        long emptyEntry = next(MessageType.MsgApp).getEntries(0).getIndex();
        for (long follower : acknowledging) {
            loop.step(List.of(Message.newBuilder().setType(MessageType.MsgAppResp).setFrom(follower).setTo(1).setTerm(vote.getTerm())
                    .setIndex(emptyEntry).build()));
        }
        committed.poll(10, TimeUnit.SECONDS);
        return new Elected(vote.getTerm(), emptyEntry);
    }

    @Test
    void persistsBeforeSendingAndAppliesAfterCommitting() throws Exception {
        MemoryRaftStorage storage = new MemoryRaftStorage();
        loop = start(storage);
        committed.poll(10, TimeUnit.SECONDS); // the bootstrap's conf changes
        loop.appliedTo(3, true);
        Message vote = next(MessageType.MsgVote);
        loop.step(List.of(Message.newBuilder().setType(MessageType.MsgVoteResp).setFrom(2).setTo(1).setTerm(vote.getTerm()).build()));
        Message firstAppend = next(MessageType.MsgApp);
        long emptyEntry = firstAppend.getEntries(0).getIndex();
        loop.step(List.of(Message.newBuilder().setType(MessageType.MsgAppResp).setFrom(2).setTo(1).setTerm(vote.getTerm())
                .setIndex(emptyEntry).build()));
        List<Entry> leaderEntry = committed.poll(10, TimeUnit.SECONDS);
        assertEquals(emptyEntry, leaderEntry.get(leaderEntry.size() - 1).getIndex(), "committed once a quorum holds it");

        loop.propose(ByteString.copyFromUtf8("x"), new CompletableFuture<>(), true);
        Message append = next(MessageType.MsgApp);
        while (append.getEntriesCount() == 0 || !append.getEntries(append.getEntriesCount() - 1).getData().toStringUtf8().equals("x")) {
            append = next(MessageType.MsgApp); // probes and heartbeat-driven resends come first
        }
        long index = append.getEntries(append.getEntriesCount() - 1).getIndex();
        assertTrue(committed.isEmpty(), "nothing commits before a follower acknowledges");
        loop.step(List.of(Message.newBuilder().setType(MessageType.MsgAppResp).setFrom(append.getTo()).setTo(1)
                .setTerm(vote.getTerm()).setIndex(index).build()));
        List<Entry> proposal = committed.poll(10, TimeUnit.SECONDS);
        assertEquals("x", proposal.get(proposal.size() - 1).getData().toStringUtf8());
        assertTrue(violations.isEmpty(), String.join("\n", violations));
    }

    /**
     * The Ready a follower's acknowledgement brings only commits: its entries go to the apply loop
     * (which answers the client) before the commit notices leave for the followers.
     */
    @Test
    void aReadyThatOnlyCommitsIsAppliedBeforeItsMessagesLeave() throws Exception {
        Elected leader = elect(new MemoryRaftStorage(), 2);
        loop.propose(ByteString.copyFromUtf8("y"), new CompletableFuture<>(), true);
        Message append = next(MessageType.MsgApp);
        while (append.getEntriesCount() == 0 || !append.getEntries(append.getEntriesCount() - 1).getData().toStringUtf8().equals("y")) {
            append = next(MessageType.MsgApp);
        }
        long index = append.getEntries(append.getEntriesCount() - 1).getIndex();
        loop.step(List.of(Message.newBuilder().setType(MessageType.MsgAppResp).setFrom(append.getTo()).setTo(1)
                .setTerm(leader.term()).setIndex(index).build()));
        assertEquals("y", committed.poll(10, TimeUnit.SECONDS).get(0).getData().toStringUtf8());
        Message notice = next(MessageType.MsgApp);
        while (notice.getCommit() < index) {
            notice = next(MessageType.MsgApp);
        }
        List<String> order = List.copyOf(steps);
        int applied = order.indexOf("applied " + index);
        int announced = -1;
        for (int i = 0; i < order.size() && announced < 0; i++) {
            if (order.get(i).startsWith("announced ") && Long.parseLong(order.get(i).substring(10)) >= index) {
                announced = i;
            }
        }
        assertTrue(applied >= 0 && announced > applied, "applied before the commit of " + index + " was announced: " + order);
        assertTrue(violations.isEmpty(), String.join("\n", violations));
    }

    /**
     * A client's proposal made while the loop's thread waits is proposed, written and sent on the
     * caller's thread (no hand-off); one from a caller that may hold locks always goes to the loop's
     * thread. Every proposal is sent either way.
     */
    @Test
    void workBroughtWhileTheLoopWaitsRunsOnTheCallersThread() throws Exception {
        elect(new MemoryRaftStorage(), 2, 3);
        String caller = Thread.currentThread().getName();
        for (int i = 0; i < 20; i++) {
            loop.propose(ByteString.copyFromUtf8("here-" + i), new CompletableFuture<>(), true);
            loop.propose(ByteString.copyFromUtf8("queued-" + i), new CompletableFuture<>(), false);
            // sent before this thread brings more work: a turn of its own would otherwise find the
            // queued proposal still waiting on a slow machine, and send it (it holds no locks then)
            long sentBy = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!sentOn.containsKey("queued-" + i) && System.nanoTime() < sentBy) {
                Thread.sleep(1);
            }
            Thread.sleep(3); // the loop's thread goes back to waiting between ticks
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (sentOn.size() < 40 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        long here = 0;
        for (int i = 0; i < 20; i++) {
            String onHere = sentOn.get("here-" + i);
            String onQueued = sentOn.get("queued-" + i);
            assertTrue(onHere != null && onQueued != null, "proposal " + i + " was sent: " + sentOn);
            assertTrue(!onQueued.equals(caller), "a proposal from a caller that may hold locks is sent by the loop's thread");
            here += onHere.equals(caller) ? 1 : 0;
        }
        assertTrue(here > 0, "some proposals were sent on the caller's thread: " + sentOn);
        assertTrue(violations.isEmpty(), String.join("\n", violations));
    }

    /**
     * A follower whose leader's stream has closed (a leader killed a moment ago, which Raft only
     * gives up on after an election timeout) keeps a client's proposal instead of forwarding it into
     * the dead connection, where it would be lost and its client would wait for its own timeout;
     * it forwards the proposal once the leader (or a new one) is reachable. One forwarded to a
     * leader whose stream then closes fails at once with an unknown outcome.
     */
    @Test
    void aFollowerForwardsAProposalOnlyToALeaderItCanReach() throws Exception {
        MemoryRaftStorage storage = new MemoryRaftStorage();
        loop = start(storage, 1000);
        committed.poll(10, TimeUnit.SECONDS);
        loop.appliedTo(3, true);
        AtomicBoolean heartbeats = new AtomicBoolean(true);
        Thread leader = new Thread(() -> { // member 2 leads term 5 and keeps member 1 from campaigning
            while (heartbeats.get()) {
                loop.step(List.of(Message.newBuilder().setType(MessageType.MsgHeartbeat).setFrom(2).setTo(1).setTerm(5).build()));
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        leader.start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (loop.lead() != 2 && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertEquals(2, loop.lead(), "member 2 leads");
            unreachable = 2;
            CompletableFuture<Void> owner = new CompletableFuture<>();
            loop.propose(ByteString.copyFromUtf8("kept"), owner, true);
            Thread.sleep(300); // thirty ticks
            for (Message m : sent) {
                assertTrue(m.getType() != MessageType.MsgProp, "forwarded to an unreachable leader: " + m);
            }
            assertTrue(!owner.isDone(), "the proposal waits (for up to two election timeouts): " + owner);
            unreachable = 0;
            Message forwarded = next(MessageType.MsgProp);
            assertEquals(2, forwarded.getTo());
            assertEquals("kept", forwarded.getEntries(0).getData().toStringUtf8());

            // the stream to the leader closes before an answer: the proposal may have been lost on
            // the way, and its client hears so (an unknown outcome) at the next tick
            unreachable = 2;
            ExecutionException lost = assertThrows(ExecutionException.class, () -> owner.get(10, TimeUnit.SECONDS));
            assertEquals(EtcdError.TIMEOUT_DUE_TO_CONNECTION_LOST.text(), lost.getCause().getMessage());
        } finally {
            heartbeats.set(false);
            leader.join();
        }
        assertTrue(violations.isEmpty(), String.join("\n", violations));
    }
}
