package io.etcdj.robustness;

import io.etcdj.api.etcdserverpb.StatusResponse;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Polls every member's Status and records which member claimed to lead each term: never two. A
 * member's Status reads its leader and its term separately (etcd's does too), so one answer taken
 * while an election completes can pair the new leader with the old term; a claim counts once the
 * same member makes it in two polls in a row.
 */
final class LeaderWatch {
    private final Cluster cluster;
    private final Map<Long, String> leaderOfTerm = new ConcurrentHashMap<>();
    /** The last (term) each member claimed to lead in, awaiting confirmation by its next poll. */
    private final Map<String, Long> lastClaim = new ConcurrentHashMap<>();
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
                    boolean claims = st != null && st.getLeader() != 0 && st.getLeader() == st.getHeader().getMemberId();
                    Long before = claims ? lastClaim.put(m.name, st.getRaftTerm()) : lastClaim.remove(m.name);
                    if (claims && before != null && before == st.getRaftTerm()) {
                        String prev = leaderOfTerm.putIfAbsent(st.getRaftTerm(), m.name);
                        if (prev != null && !prev.equals(m.name)) {
                            violations.add(prev + " and " + m.name + " both lead term " + st.getRaftTerm());
                        }
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

    int terms() {
        return leaderOfTerm.size();
    }

    void stop() throws InterruptedException {
        running.set(false);
        thread.join(5000);
    }
}
