package io.etcdj.launcher.dashboard;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Turns successive {@link ClusterView}s into what a person would call events: a member killed,
 * paused or partitioned, a member added or promoted, health and alarms changing, and above all
 * leader elections with how long the cluster was without a leader.
 *
 * <p>The leaderless time runs from the earliest sign that the leader was lost: the moment the
 * dashboard sent an action that takes the leader out (kill, stop, pause, partition, ...), else
 * the first view in which no member answered as leader, to the first view that shows a leader
 * again. Views come four times a second, so times are good to about 250 ms plus the member's
 * own election timeout. Called from one thread.
 */
final class EventDetector {
    /** Actions that take a leader out of office when aimed at it. */
    private static final Map<String, String> DISRUPTIVE = Map.of(
            "kill", "killed", "stop", "stopped", "restart", "restarted", "pause", "paused",
            "partition", "partitioned", "remove-member", "removed", "move-leader", "asked to hand over leadership");
    /** How long an action's claim on the next election stands when the leader stays in office. */
    private static final long CAUSE_EXPIRY_MILLIS = 15_000;
    private static final Set<String> DOWN_WORDS = Set.of("stopped", "killed", "exited");

    private ClusterView previous;
    private String leader;
    private long leaderTerm;
    /** When the leader was lost (epoch millis), or -1 while there is one. */
    private long lostAt = -1;
    private String cause;
    private boolean announcedNoLeader;
    /** Members reported unhealthy, so that their recovery is reported too. */
    private final Set<String> unhealthy = new HashSet<>();

    /** The dashboard is about to act on a member; remembered as the cause if it was the leader. */
    synchronized void actionSent(String process, String verb, long at) {
        String past = DISRUPTIVE.get(verb);
        if (past == null || leader == null) {
            return;
        }
        if ("move-leader".equals(verb)) {
            lostAt = at;
            cause = "leadership was handed to " + process;
            return;
        }
        if (process.equals(leader) && lostAt < 0) {
            lostAt = at;
            cause = process + " (the leader) was " + past;
        }
    }

    synchronized List<ClusterEvent> observe(ClusterView now) {
        List<ClusterEvent> out = new ArrayList<>();
        if (previous == null) {
            previous = now;
            if (now.leader() != null) {
                leader = now.leader();
                leaderTerm = now.term();
                out.add(event(now.at(), "leader", leader + " is the leader (term " + leaderTerm + ")"));
            }
            return out;
        }
        if (previous.running() != now.running()) {
            out.add(event(now.at(), "member", now.running()
                    ? "the cluster is running: " + String.join(", ", now.members().stream().map(MemberView::process).toList())
                    : "the cluster is not running (" + now.phase() + ")"));
        }
        if (previous.members().isEmpty()) {
            previous = now; // a cluster that just appeared: its members did not "join"
            leadership(now, out);
            return out;
        }
        for (MemberView m : now.members()) {
            Optional<MemberView> before = previous.member(m.process());
            if (before.isEmpty()) {
                out.add(event(now.at(), "membership", m.process() + " joined the cluster"
                        + ("learner".equals(m.role()) ? " as a learner" : "")));
                continue;
            }
            compare(before.get(), m, now.at(), out);
        }
        for (MemberView m : previous.members()) {
            if (now.member(m.process()).isEmpty()) {
                out.add(event(now.at(), "membership", m.process() + " was removed from the cluster"));
            }
        }
        leadership(now, out);
        previous = now;
        return out;
    }

    private void compare(MemberView before, MemberView m, long at, List<ClusterEvent> out) {
        if (!before.state().equals(m.state())) {
            String text = switch (m.state()) {
                case "running" -> "paused".equals(before.state()) ? m.process() + " resumed"
                        : m.process() + " started (pid " + m.pid() + ")";
                case "paused" -> m.process() + " paused (SIGSTOP)";
                case "killed" -> m.process() + " killed (SIGKILL)";
                case "exited" -> m.process() + " exited on its own";
                default -> m.process() + " " + m.state();
            };
            out.add(event(at, "member", text));
            if (m.process().equals(leader) && lostAt < 0 && (DOWN_WORDS.contains(m.state()) || "paused".equals(m.state()))) {
                lostAt = at;
                cause = m.process() + " (the leader) " + (DOWN_WORDS.contains(m.state()) ? m.state() : "was paused");
            }
        }
        if (before.partitioned() != m.partitioned()) {
            out.add(event(at, "fault", m.process() + (m.partitioned() ? " partitioned from its peers" : " reconnected to its peers")));
            if (m.partitioned() && m.process().equals(leader) && lostAt < 0) {
                lostAt = at;
                cause = m.process() + " (the leader) was partitioned";
            }
        }
        if (before.delayMillis() != m.delayMillis()) {
            out.add(event(at, "fault", m.delayMillis() > 0 ? "peer traffic of " + m.process() + " delayed by "
                    + m.delayMillis() + " ms" : "peer traffic of " + m.process() + " no longer delayed"));
        }
        if ("learner".equals(before.role()) && ("follower".equals(m.role()) || "leader".equals(m.role()))) {
            out.add(event(at, "membership", m.process() + " was promoted to a voting member"));
        }
        // a member becoming healthy while it starts is no news: only a change from healthy, and back
        if ("healthy".equals(before.health()) && m.health().startsWith("unhealthy")) {
            unhealthy.add(m.process());
            out.add(event(at, "health", m.process() + " is " + m.health()));
        } else if ("healthy".equals(m.health()) && unhealthy.remove(m.process())) {
            out.add(event(at, "health", m.process() + " is healthy again"));
        }
        if (m.answering() && before.answering() && !before.alarms().equals(m.alarms())) {
            out.add(event(at, "health", m.alarms().isEmpty() ? "alarms cleared on " + m.process()
                    : m.process() + " reports " + String.join(", ", m.alarms())));
        }
    }

    private void leadership(ClusterView now, List<ClusterEvent> out) {
        String current = now.leader();
        if (current == null) {
            if (leader != null && !leaderLost(now)) {
                return; // the leader only answered late (a busy machine): not an election
            }
            if (leader != null && lostAt < 0) {
                lostAt = now.at();
            }
            if (leader != null && !announcedNoLeader && now.running()) {
                announcedNoLeader = true;
                out.add(event(now.at(), "leader", "no member answers as leader (" + leader + " was)"));
            }
            return;
        }
        long term = now.member(current).map(MemberView::term).orElse(0L);
        boolean changed = !current.equals(leader) || term > leaderTerm;
        if (!changed) {
            if (lostAt >= 0 && now.at() - lostAt > CAUSE_EXPIRY_MILLIS) {
                lostAt = -1; // the action did not cost the leader its office after all
                cause = null;
            }
            return;
        }
        String text;
        if (lostAt >= 0) {
            long millis = Math.max(0, now.at() - lostAt);
            text = current + " elected leader in term " + term + ", " + millis + " ms after "
                    + Objects.requireNonNullElse(cause, "the cluster lost its leader");
        } else if (leader == null) {
            text = current + " is the leader (term " + term + ")";
        } else if (current.equals(leader)) {
            text = current + " re-elected leader in term " + term;
        } else {
            text = "leadership moved from " + leader + " to " + current + " (term " + term + ")";
        }
        out.add(event(now.at(), "leader", text));
        leader = current;
        leaderTerm = term;
        lostAt = -1;
        cause = null;
        announcedNoLeader = false;
    }

    /** The leader is down or cut off, or a member that answers says it knows no leader. */
    private boolean leaderLost(ClusterView now) {
        boolean leaderOut = now.member(leader).map(m -> m.isDown() || m.partitioned()).orElse(true);
        boolean someoneSeesNone = now.members().stream().anyMatch(m -> m.answering() && "no leader".equals(m.role()));
        return leaderOut || someoneSeesNone;
    }

    private static ClusterEvent event(long at, String kind, String text) {
        return new ClusterEvent(0, at, kind, text);
    }
}
