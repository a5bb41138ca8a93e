package io.etcdj.robustness;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The fault schedule of a run: quiet spells and fault windows, one fault at a time or two
 * overlapping, chosen from a seeded random source so a failing run names its seed. At the end of
 * each window everything recovers: links heal, paused members resume, killed members restart.
 */
final class Faults {
    enum Kind {
        KILL_LEADER, KILL_RANDOM, PAUSE_RANDOM, ISOLATE_RANDOM, ISOLATE_LEADER, CUT_LINK, SLOW_LINKS
    }

    private final Cluster cluster;
    private final Random rnd;
    private final List<Kind> mix;
    final List<String> injected = Collections.synchronizedList(new ArrayList<>());
    private final AtomicBoolean running = new AtomicBoolean(true);

    Faults(Cluster cluster, long seed, List<Kind> mix) {
        this.cluster = cluster;
        this.rnd = new Random(seed);
        this.mix = mix.stream().filter(cluster.network().supported()::contains).toList();
    }

    void stop() {
        running.set(false);
    }

    /** Runs windows until stopped or {@code endNanos}; returns with every fault recovered. */
    void run(long endNanos) throws IOException, InterruptedException {
        while (running.get() && System.nanoTime() < endNanos - 3_000_000_000L) {
            Thread.sleep(1000 + rnd.nextInt(1500));
            int count = rnd.nextInt(4) == 0 ? 2 : 1;
            List<String> now = new ArrayList<>();
            for (int i = 0; i < count && !mix.isEmpty(); i++) {
                now.add(inject(mix.get(rnd.nextInt(mix.size()))));
            }
            injected.add(String.join(" + ", now));
            long window = 1500 + rnd.nextInt(2000);
            Thread.sleep(window);
            cluster.recover();
        }
        cluster.recover();
    }

    private MemberProcess random() {
        List<MemberProcess> ms = cluster.members();
        return ms.get(rnd.nextInt(ms.size()));
    }

    private MemberProcess leaderOrRandom() {
        MemberProcess l = cluster.leader();
        return l != null ? l : random();
    }

    private String inject(Kind kind) throws IOException, InterruptedException {
        switch (kind) {
            case KILL_LEADER, KILL_RANDOM -> {
                MemberProcess m = kind == Kind.KILL_LEADER ? leaderOrRandom() : random();
                m.kill9();
                return "kill " + m.name + (kind == Kind.KILL_LEADER ? " (leader)" : "");
            }
            case PAUSE_RANDOM -> {
                MemberProcess m = random();
                m.pause();
                return "pause " + m.name;
            }
            case ISOLATE_RANDOM, ISOLATE_LEADER -> {
                MemberProcess m = kind == Kind.ISOLATE_LEADER ? leaderOrRandom() : random();
                cluster.network().isolate(m);
                return "isolate " + m.name + (kind == Kind.ISOLATE_LEADER ? " (leader)" : "");
            }
            case CUT_LINK -> {
                List<MemberProcess> ms = new ArrayList<>(cluster.members());
                Collections.shuffle(ms, rnd);
                cluster.network().cut(ms.get(0), ms.get(1));
                return "cut " + ms.get(0).name + "-" + ms.get(1).name;
            }
            case SLOW_LINKS -> {
                MemberProcess m = random();
                int millis = 50 + rnd.nextInt(150);
                cluster.network().slow(m, millis);
                return "slow " + m.name + " " + millis + "ms";
            }
            default -> throw new IllegalStateException(kind.name());
        }
    }
}
