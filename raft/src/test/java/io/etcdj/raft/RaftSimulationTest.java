package io.etcdj.raft;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.raftpb.ConfChange;
import io.etcdj.raftpb.ConfChangeType;
import io.etcdj.raftpb.ConfState;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

/**
 * Randomized deterministic simulation: for each seed, a 3- or 5-node cluster runs through random
 * ticks, proposals, reads, message loss, delay, duplication and reordering, partitions,
 * crash-restarts, snapshots with compaction and leader transfers. Safety is checked after every
 * step; at the end the network heals and a new proposal must commit everywhere.
 *
 * <p>Half of the runs drive the nodes as the server does, with asynchronous apply: committed
 * entries are applied some steps after their Ready, the applied state is made durable at random
 * points, and a crash restarts a node from its persisted log, snapshot and that durable state
 * (so it may restart with committed conf changes not yet applied, the case that once let a
 * restarted member elect itself alone).
 *
 * <p>{@code -Draft.sim.seeds=N} (default 1000) and {@code -Draft.sim.firstSeed=S} choose the seeds;
 * {@code -Draft.sim.steps=K} the steps per seed. A failure names its seed, and
 * {@code -Draft.sim.firstSeed=<seed> -Draft.sim.seeds=1} replays it.
 */
class RaftSimulationTest {
    private static final int SEEDS = Integer.getInteger("raft.sim.seeds", 1000);
    private static final long FIRST_SEED = Long.getLong("raft.sim.firstSeed", 1L);
    private static final int STEPS = Integer.getInteger("raft.sim.steps", 600);

    @Test
    void randomizedRunsAreSafeAndLive() {
        runSeeds(SEEDS, false);
    }

    /** The same, plus random membership changes: learners added and promoted, voters added and removed. */
    @Test
    void randomizedRunsWithMembershipChangesAreSafeAndLive() {
        runSeeds(Math.max(1, SEEDS / 2), true);
    }

    /** The core is deterministic: one seed always produces the very same run. */
    @Test
    void sameSeedReplaysTheSameRun() {
        for (long seed = FIRST_SEED; seed < FIRST_SEED + 20; seed++) {
            Run first = new Run(seed, true);
            first.execute();
            Run second = new Run(seed, true);
            second.execute();
            Assertions.assertEquals(first.fingerprint(), second.fingerprint(), "seed " + seed);
        }
    }

    private static void runSeeds(int seeds, boolean membership) {
        List<String> failures = new ArrayList<>();
        long committed = 0;
        long leaders = 0;
        SafetyChecker.APPLIED_CONF_CHANGES.reset();
        SafetyChecker.SNAPSHOTS_INSTALLED.reset();
        SafetyChecker.READS_ANSWERED.reset();
        for (long seed = FIRST_SEED; seed < FIRST_SEED + seeds; seed++) {
            try {
                Run run = new Run(seed, membership);
                run.execute();
                committed += run.checker.maxApplied();
                leaders += run.checker.termsWithLeader();
            } catch (Throwable t) {
                String line = "seed " + seed + ": " + t;
                System.err.println("raft simulation failed" + (membership ? " (membership)" : "") + ": " + line
                        + " (replay with -Draft.sim.firstSeed=" + seed + " -Draft.sim.seeds=1)");
                failures.add(line);
                if (failures.size() >= 10) {
                    break;
                }
            }
        }
        System.out.printf("raft simulation%s: %d seeds from %d, %d steps each: %d log indexes committed, %d terms with"
                + " a leader, %d conf changes applied, %d snapshots installed, %d reads answered, %d failures%n",
                membership ? " with membership changes" : "", seeds, FIRST_SEED, STEPS, committed, leaders,
                SafetyChecker.APPLIED_CONF_CHANGES.sum(), SafetyChecker.SNAPSHOTS_INSTALLED.sum(),
                SafetyChecker.READS_ANSWERED.sum(), failures.size());
        assertTrue(failures.isEmpty(), "failing seeds:\n" + String.join("\n", failures));
    }

    /** One seeded run. */
    private static final class Run {
        private final long seed;
        private final Random rnd;
        private final SafetyChecker checker = new SafetyChecker();
        private final SimulatedNetwork net;
        private final int electionTick;
        private final boolean membership;
        private final boolean asyncApply;
        private final UnaryOperator<RaftConfig.Builder> configurer;
        private long nextId;
        private int proposals;
        private int reads;

        Run(long seed, boolean membership) {
            this.seed = seed;
            this.membership = membership;
            this.rnd = new Random(seed);
            int size = rnd.nextBoolean() ? 3 : 5;
            this.electionTick = rnd.nextBoolean() ? 5 : 10;
            boolean preVote = rnd.nextInt(4) != 0;
            boolean checkQuorum = rnd.nextInt(4) != 0;
            long maxSize = rnd.nextBoolean() ? 64 : RaftConfig.DEFAULT_MAX_SIZE_PER_MSG;
            int inflight = rnd.nextBoolean() ? 2 : 64;
            this.asyncApply = rnd.nextBoolean();
            boolean async = asyncApply;
            this.configurer = b -> b.electionTick(electionTick).preVote(preVote)
                    .checkQuorum(checkQuorum).maxSizePerMsg(maxSize).maxInflightMsgs(inflight).asyncApply(async);
            this.net = new SimulatedNetwork(rnd, size, seed, configurer, checker);
            this.nextId = size + 1;
            checker.attach(net);
            net.maxDelay = rnd.nextInt(4);
            net.dropRate = rnd.nextInt(3) == 0 ? 0.1 : 0;
            net.duplicateRate = rnd.nextInt(3) == 0 ? 0.05 : 0;
        }

        void execute() {
            for (int step = 0; step < STEPS; step++) {
                randomAction(new ArrayList<>(net.nodes.keySet()));
                net.step();
                checker.checkAll();
            }
            checkLiveness(new ArrayList<>(net.nodes.keySet()));
        }

        /** Everything observable at the end of a run. */
        String fingerprint() {
            StringBuilder sb = new StringBuilder();
            for (TestNode n : net.nodes.values()) {
                sb.append(n.status()).append(' ').append(n.storage.initialState().hardState())
                        .append(' ').append(n.storage.lastIndex()).append(' ').append(n.appliedData()).append('\n');
            }
            return sb.append(net.now()).toString();
        }

        private void randomAction(List<Long> ids) {
            long id = ids.get(rnd.nextInt(ids.size()));
            if (asyncApply && rnd.nextInt(100) < 30) {
                // The apply thread runs at its own pace: sometimes behind, sometimes durable.
                if (rnd.nextInt(4) == 0) {
                    net.nodes.get(id).persistApplied();
                } else {
                    net.applySome(id, 1 + rnd.nextInt(8));
                }
                return;
            }
            int r = rnd.nextInt(100);
            if (r < 45) {
                // Deliver a few due messages: about as many as the ticks produce, so queues stay bounded.
                for (int i = rnd.nextInt(4); i >= 0; i--) {
                    net.deliverOne();
                }
            } else if (r < 70) {
                net.tick(id);
            } else if (r < 78) {
                propose(id);
            } else if (r < 80) {
                read(id);
            } else if (r < 84) {
                for (long each : ids) {
                    net.tick(each);
                }
            } else if (r < 87) {
                partition(ids);
            } else if (r < 88) {
                net.dropRate = new double[] {0, 0, 0.05, 0.3}[rnd.nextInt(4)];
            } else if (r < 91) {
                crashOrRestart(ids, id);
            } else if (r < 94) {
                if (net.isUp(id)) {
                    net.nodes.get(id).snapshotAndCompact(rnd.nextInt(4));
                }
            } else if (r < 95) {
                transfer(ids, id);
            } else if (membership && r < 98) {
                changeMembership();
            } else {
                net.deliverAllDue();
            }
        }

        private void changeMembership() {
            TestNode leader = currentLeader();
            if (leader == null) {
                return;
            }
            ConfState cs = leader.status().confState();
            List<Long> members = new ArrayList<>(cs.getVotersList());
            members.addAll(cs.getLearnersList());
            ConfChange.Builder cc = ConfChange.newBuilder();
            int choice = rnd.nextInt(3);
            if (choice == 0 && cs.getLearnersCount() > 0) {
                cc.setType(ConfChangeType.ConfChangeAddNode)
                        .setNodeId(cs.getLearners(rnd.nextInt(cs.getLearnersCount())));
            } else if (choice == 1 && cs.getVotersCount() > 2) {
                cc.setType(ConfChangeType.ConfChangeRemoveNode)
                        .setNodeId(members.get(rnd.nextInt(members.size())));
            } else if (net.nodes.size() < 8) {
                long id = nextId++;
                net.addNode(id, seed, configurer, checker);
                cc.setType(rnd.nextBoolean() ? ConfChangeType.ConfChangeAddLearnerNode
                        : ConfChangeType.ConfChangeAddNode).setNodeId(id);
            } else {
                return;
            }
            try {
                leader.node.proposeConfChange(cc.build());
            } catch (ProposalDroppedException e) {
                // another change is pending or a transfer is running: fine
            }
            net.flush(leader.id);
        }

        /** The up leader with the highest term, or null. */
        private TestNode currentLeader() {
            TestNode best = null;
            for (long id : net.upNodes()) {
                TestNode n = net.nodes.get(id);
                if (n.isLeader() && (best == null || n.status().term() > best.status().term())) {
                    best = n;
                }
            }
            return best;
        }

        private void propose(long id) {
            if (!net.isUp(id)) {
                return;
            }
            try {
                net.nodes.get(id).node.propose(("p" + seed + "-" + proposals++).getBytes(StandardCharsets.UTF_8));
            } catch (ProposalDroppedException e) {
                // no leader known: fine
            }
            net.flush(id);
        }

        private void read(long id) {
            if (!net.isUp(id)) {
                return;
            }
            String ctx = "r" + reads++;
            checker.readRequested(ctx);
            try {
                net.nodes.get(id).node.readIndex(ctx.getBytes(StandardCharsets.UTF_8));
            } catch (ProposalDroppedException e) {
                // no leader known: fine
            }
            net.flush(id);
        }

        private void partition(List<Long> ids) {
            // Heal as often as we break, so runs alternate between trouble and recovery.
            switch (rnd.nextInt(4)) {
                case 0 -> net.isolate(ids.get(rnd.nextInt(ids.size())));
                case 1 -> net.cut(ids.get(rnd.nextInt(ids.size())), ids.get(rnd.nextInt(ids.size())));
                default -> net.heal();
            }
        }

        private void crashOrRestart(List<Long> ids, long id) {
            if (!net.isUp(id)) {
                net.restart(id);
            } else if (net.down.size() < (ids.size() - 1) / 2) {
                // Keep a majority running most of the time; partitions still take quorum away.
                net.crash(id);
            }
        }

        private void transfer(List<Long> ids, long id) {
            if (net.isUp(id)) {
                net.nodes.get(id).node.transferLeader(ids.get(rnd.nextInt(ids.size())));
                net.flush(id);
            }
        }

        /** Heal everything; a leader must emerge and a new proposal must be applied on every node. */
        private void checkLiveness(List<Long> ids) {
            net.heal();
            net.dropRate = 0;
            net.duplicateRate = 0;
            for (long id : ids) {
                net.restart(id);
            }
            String marker = "final-" + seed;
            boolean proposed = false;
            int rounds = 0;
            int limit = 200 * electionTick;
            while (rounds++ < limit) {
                for (long id : ids) {
                    net.tick(id);
                    net.applySome(id, Integer.MAX_VALUE);
                }
                for (int i = 0; i < 5; i++) {
                    net.step();
                    net.deliverAllDue();
                }
                checker.checkAll();
                if (!proposed) {
                    for (long id : ids) {
                        TestNode n = net.nodes.get(id);
                        if (n.isLeader()) {
                            try {
                                n.node.propose(marker.getBytes(StandardCharsets.UTF_8));
                                proposed = true;
                            } catch (ProposalDroppedException e) {
                                // a transfer may be in progress; retry next round
                            }
                            net.flush(id);
                        }
                    }
                } else if (allApplied(membersNow(ids), marker)) {
                    return;
                } else if (rounds % (20 * electionTick) == 0) {
                    // The leader that took the proposal may have lost leadership before committing it.
                    proposed = false;
                }
            }
            StringBuilder sb = new StringBuilder("liveness: '" + marker + "' not applied everywhere after healing (proposed="
                    + proposed + ")");
            for (long id : ids) {
                TestNode n = net.nodes.get(id);
                Status st = n.status();
                long last = n.storage.lastIndex();
                sb.append("\n  node ").append(id).append(": ").append(st.role()).append(" term=").append(st.term())
                        .append(" vote=").append(st.vote()).append(" lead=").append(st.lead()).append(" commit=")
                        .append(st.commit()).append(" applied=").append(st.applied()).append(" last=").append(last)
                        .append(" lastTerm=").append(n.storage.term(last)).append(" voters=")
                        .append(st.confState().getVotersList()).append(" learners=")
                        .append(st.confState().getLearnersList()).append(" progress=").append(st.progress());
            }
            throw new AssertionError(sb.toString());
        }

        /** Nodes in the current leader's configuration (all nodes when no leader is known). */
        private List<Long> membersNow(List<Long> ids) {
            TestNode leader = currentLeader();
            if (leader == null) {
                return ids;
            }
            ConfState cs = leader.status().confState();
            List<Long> out = new ArrayList<>(cs.getVotersList());
            out.addAll(cs.getLearnersList());
            return out;
        }

        private boolean allApplied(List<Long> ids, String marker) {
            for (long id : ids) {
                if (!net.nodes.get(id).appliedData().contains(marker)) {
                    return false;
                }
            }
            return true;
        }
    }
}
