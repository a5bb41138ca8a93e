package io.etcdj.server.raft;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Randomized deterministic simulation: for each seed, a 3- or 5-node cluster runs through random
 * ticks, proposals, reads, message loss, delay, duplication and reordering, partitions,
 * crash-restarts, snapshots with compaction and leader transfers. Safety is checked after every
 * step; at the end the network heals and a new proposal must commit everywhere.
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
        List<String> failures = new ArrayList<>();
        for (long seed = FIRST_SEED; seed < FIRST_SEED + SEEDS; seed++) {
            try {
                new Run(seed).execute();
            } catch (Throwable t) {
                String line = "seed " + seed + ": " + t;
                System.err.println("raft simulation failed: " + line + " (replay with -Draft.sim.firstSeed=" + seed
                        + " -Draft.sim.seeds=1)");
                failures.add(line);
                if (failures.size() >= 10) {
                    break;
                }
            }
        }
        assertTrue(failures.isEmpty(), "failing seeds:\n" + String.join("\n", failures));
    }

    /** One seeded run. */
    private static final class Run {
        private final long seed;
        private final Random rnd;
        private final SafetyChecker checker = new SafetyChecker();
        private final SimulatedNetwork net;
        private final int electionTick;
        private int proposals;
        private int reads;

        Run(long seed) {
            this.seed = seed;
            this.rnd = new Random(seed);
            int size = rnd.nextBoolean() ? 3 : 5;
            this.electionTick = rnd.nextBoolean() ? 5 : 10;
            boolean preVote = rnd.nextInt(4) != 0;
            boolean checkQuorum = rnd.nextInt(4) != 0;
            long maxSize = rnd.nextBoolean() ? 64 : RaftConfig.DEFAULT_MAX_SIZE_PER_MSG;
            int inflight = rnd.nextBoolean() ? 2 : 64;
            this.net = new SimulatedNetwork(rnd, size, seed, b -> b.electionTick(electionTick).preVote(preVote)
                    .checkQuorum(checkQuorum).maxSizePerMsg(maxSize).maxInflightMsgs(inflight), checker);
            checker.attach(net);
            net.maxDelay = rnd.nextInt(4);
            net.dropRate = rnd.nextInt(3) == 0 ? 0.1 : 0;
            net.duplicateRate = rnd.nextInt(3) == 0 ? 0.05 : 0;
        }

        void execute() {
            List<Long> ids = new ArrayList<>(net.nodes.keySet());
            for (int step = 0; step < STEPS; step++) {
                randomAction(ids);
                net.step();
                checker.checkAll();
            }
            checkLiveness(ids);
        }

        private void randomAction(List<Long> ids) {
            long id = ids.get(rnd.nextInt(ids.size()));
            int r = rnd.nextInt(100);
            if (r < 45) {
                net.deliverOne();
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
            } else {
                net.deliverAllDue();
            }
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
            switch (rnd.nextInt(3)) {
                case 0 -> net.isolate(ids.get(rnd.nextInt(ids.size())));
                case 1 -> net.cut(ids.get(rnd.nextInt(ids.size())), ids.get(rnd.nextInt(ids.size())));
                default -> net.heal();
            }
        }

        private void crashOrRestart(List<Long> ids, long id) {
            if (!net.isUp(id)) {
                net.restart(id);
            } else if (net.down.size() < (ids.size() - 1) / 2 + 1) {
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
                } else if (allApplied(ids, marker)) {
                    return;
                } else if (rounds % (20 * electionTick) == 0) {
                    // The leader that took the proposal may have lost leadership before committing it.
                    proposed = false;
                }
            }
            StringBuilder sb = new StringBuilder("liveness: '" + marker + "' not applied everywhere after healing (proposed="
                    + proposed + ")");
            for (long id : ids) {
                sb.append("\n  ").append(net.nodes.get(id).status());
            }
            throw new AssertionError(sb.toString().replace(", progress=", "\n    progress="));
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
