package io.etcdj.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.HashKVRequest;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.api.etcdserverpb.PutResponse;
import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.api.etcdserverpb.RangeResponse;
import io.etcdj.api.etcdserverpb.StatusRequest;
import io.etcdj.api.etcdserverpb.StatusResponse;
import io.etcdj.harness.EtcdProcess;
import io.etcdj.harness.Eventually;
import io.etcdj.harness.ProcessCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The data-loss scenario, at process level: a 3-member cluster of ours under writes through every
 * member, whose leader (and, in between, the member with the lowest ID, which restarted into a
 * one-voter view of the cluster) is SIGKILLed and restarted at once, several times. Every
 * acknowledged write must be on every member with the revision it was acknowledged with, the
 * members must end with the same history hash, and no two members may ever claim to lead the
 * same term.
 *
 * <p>The apply thread is slowed before each conf change (failpoint {@code applyBeforeConfChange}),
 * which widens the window the bug needed from microseconds to a quarter second: with the fix
 * reverted, the restarted member elects itself alone in the first round that restarts it.
 */
class LeaderRestartIT {
    private static final int ROUNDS = Integer.getInteger("leaderRestart.rounds", 5);

    private record Acked(String key, long revision) {
    }

    @Test
    void killingAndRestartingTheLeaderUnderLoadLosesNothing() throws Exception {
        try (ProcessCluster c = ProcessCluster.start(EtcdProcess.Binary.OURS, 3,
                List.of("-Detcdj.failpoints=applyBeforeConfChange=sleep(250)"))) {
            List<GrpcEndpoint> eps = GrpcEndpoint.forMembers(c);
            try {
                run(c, eps);
            } finally {
                GrpcEndpoint.closeAll(eps);
            }
        }
    }

    private void run(ProcessCluster c, List<GrpcEndpoint> eps) throws Exception {
        long[] ids = new long[eps.size()];
        for (int i = 0; i < eps.size(); i++) {
            ids[i] = status(eps.get(i)).getHeader().getMemberId();
        }
        int lowest = 0;
        for (int i = 1; i < ids.length; i++) {
            if (Long.compareUnsigned(ids[i], ids[lowest]) < 0) {
                lowest = i;
            }
        }
        List<Acked> acked = Collections.synchronizedList(new ArrayList<>());
        Map<Long, Long> leaderOfTerm = new ConcurrentHashMap<>();
        Set<String> violations = Collections.synchronizedSet(new LinkedHashSet<>());
        AtomicBoolean running = new AtomicBoolean(true);
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < 6; w++) {
            int writer = w;
            threads.add(started("writer-" + w, () -> {
                GrpcEndpoint ep = eps.get(writer % eps.size());
                for (int n = 0; running.get(); n++) {
                    String key = "lr/" + writer + "-" + n;
                    try {
                        PutResponse r = ep.kv().withDeadlineAfter(3, TimeUnit.SECONDS).put(PutRequest.newBuilder()
                                .setKey(ByteString.copyFromUtf8(key)).setValue(ByteString.copyFromUtf8("v" + n)).build());
                        acked.add(new Acked(key, r.getHeader().getRevision()));
                    } catch (RuntimeException e) {
                        // Unknown outcome (member down, no leader, timeout): neither acknowledged nor lost.
                        sleep(20);
                    }
                }
            }));
        }
        threads.add(started("leader-watch", () -> {
            while (running.get()) {
                for (GrpcEndpoint ep : eps) {
                    try {
                        StatusResponse s = ep.maintenance().withDeadlineAfter(1, TimeUnit.SECONDS)
                                .status(StatusRequest.getDefaultInstance());
                        long self = s.getHeader().getMemberId();
                        if (s.getLeader() == self) {
                            Long prev = leaderOfTerm.putIfAbsent(s.getRaftTerm(), self);
                            if (prev != null && prev != self) {
                                violations.add("members " + Long.toHexString(prev) + " and " + Long.toHexString(self)
                                        + " both lead term " + s.getRaftTerm());
                            }
                        }
                    } catch (RuntimeException e) {
                        // a member being restarted
                    }
                }
                sleep(25);
            }
        }));
        try {
            sleep(1500);
            for (int round = 0; round < ROUNDS; round++) {
                int victim = round % 2 == 1 ? lowest : GrpcEndpoint.leaderIndex(eps);
                EtcdProcess m = c.member(victim);
                m.kill9();
                m.start();
                sleep(1500);
            }
        } finally {
            running.set(false);
            for (Thread t : threads) {
                t.join(TimeUnit.SECONDS.toMillis(30));
            }
        }
        assertTrue(violations.isEmpty(), String.join("\n", violations));
        assertTrue(acked.size() > 50, "the load did not run: " + acked.size() + " acknowledged writes");
        long finalRev = eps.get(GrpcEndpoint.leaderIndex(eps)).revision();
        for (int i = 0; i < eps.size(); i++) {
            GrpcEndpoint ep = eps.get(i);
            awaitApplied(ep, finalRev);
            for (Acked a : List.copyOf(acked)) {
                RangeResponse r = ep.kv().range(RangeRequest.newBuilder().setKey(ByteString.copyFromUtf8(a.key()))
                        .setSerializable(true).build());
                assertEquals(1, r.getCount(), "acknowledged write " + a + " missing on " + c.member(i).describe());
                assertEquals(a.revision(), r.getKvs(0).getModRevision(),
                        "acknowledged write " + a + " has another revision on " + c.member(i).describe());
            }
        }
        long hash = -1;
        for (GrpcEndpoint ep : eps) {
            long h = ep.maintenance().hashKV(HashKVRequest.newBuilder().setRevision(finalRev).build()).getHash();
            if (hash != -1) {
                assertEquals(hash, h, "members diverge at revision " + finalRev);
            }
            hash = h;
        }
        System.out.printf("leader restart: %d rounds, %d acknowledged writes, %d terms observed, final revision %d%n",
                ROUNDS, acked.size(), leaderOfTerm.size(), finalRev);
    }

    private static Thread started(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.start();
        return t;
    }

    private static StatusResponse status(GrpcEndpoint ep) {
        return ep.maintenance().status(StatusRequest.getDefaultInstance());
    }

    /** Waits until a member's serializable reads reflect {@code revision}. */
    private static void awaitApplied(GrpcEndpoint ep, long revision) throws InterruptedException {
        Eventually.until(ep.member().describe() + " at revision " + revision, Duration.ofSeconds(30), () -> {
            long seen = ep.kv().range(RangeRequest.newBuilder().setKey(ByteString.copyFromUtf8("\0")).setSerializable(true)
                    .build()).getHeader().getRevision();
            if (seen < revision) {
                throw new IllegalStateException("stays at revision " + seen + ", below " + revision);
            }
            return true;
        });
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
