package io.etcdj.robustness;

import io.etcdj.api.etcdserverpb.StatusResponse;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Polls every member's Status every 50 ms while a run lasts and hands the answers to
 * {@link LeaderClaims}, which decides which claims to lead a term count.
 */
final class LeaderWatch {
    private final Cluster cluster;
    private final LeaderClaims claims = new LeaderClaims();
    final Set<String> violations = Collections.synchronizedSet(new LinkedHashSet<>());
    private final AtomicBoolean running = new AtomicBoolean(true);
    private Thread thread;

    LeaderWatch(Cluster cluster) {
        this.cluster = cluster;
    }

    void start() {
        thread = new Thread(() -> {
            while (running.get()) {
                for (MemberProcess m : cluster.members()) {
                    StatusResponse st = cluster.status(m, 300);
                    if (st == null) {
                        claims.noAnswer(m.name);
                    } else {
                        claims.observe(m.name, st.getLeader() != 0 && st.getLeader() == st.getHeader().getMemberId(),
                                st.getRaftTerm());
                    }
                }
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "leader-watch");
        thread.setDaemon(true);
        thread.start();
    }

    /** How many terms had a leader (valid after {@link #stop}). */
    int terms() {
        return claims.terms();
    }

    /** Stops polling and records the violations found. */
    void stop() throws InterruptedException {
        running.set(false);
        thread.join(5000);
        claims.finish();
        violations.addAll(claims.violations());
    }
}
