package io.etcdj.raft.tracker;

import io.etcdj.raft.quorum.MajorityConfig;
import io.etcdj.raft.quorum.VoteResult;
import io.etcdj.raftpb.ConfState;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The current membership (voters and learners), the leader's progress for each member, and the
 * votes of an ongoing election. Iteration is in id order so runs are reproducible.
 */
public final class ProgressTracker {
    private final int maxInflight;
    private MajorityConfig voters = new MajorityConfig(Set.of());
    private final TreeSet<Long> learners = new TreeSet<>();
    private final TreeMap<Long, Progress> progress = new TreeMap<>();
    private final Map<Long, Boolean> votes = new HashMap<>();

    public ProgressTracker(int maxInflight) {
        this.maxInflight = maxInflight;
    }

    public int maxInflight() {
        return maxInflight;
    }

    public MajorityConfig voters() {
        return voters;
    }

    public Set<Long> learners() {
        return Collections.unmodifiableSet(learners);
    }

    public boolean isVoter(long id) {
        return voters.contains(id);
    }

    public boolean isLearner(long id) {
        return learners.contains(id);
    }

    public boolean isMember(long id) {
        return progress.containsKey(id);
    }

    public Progress progress(long id) {
        return progress.get(id);
    }

    /** All members' progress in id order; live view. */
    public NavigableMap<Long, Progress> allProgress() {
        return Collections.unmodifiableNavigableMap(progress);
    }

    /** Adds a voter, or promotes an existing learner. */
    public void addVoter(long id, long match, long next) {
        learners.remove(id);
        Progress pr = progress.get(id);
        if (pr == null) {
            pr = new Progress(match, next, maxInflight, false);
            // A new member counts as active so it is not mistaken for a dead peer before it answers.
            pr.setRecentActive(true);
            progress.put(id, pr);
        }
        pr.setLearner(false);
        TreeSet<Long> ids = new TreeSet<>(voters.voters());
        ids.add(id);
        voters = new MajorityConfig(ids);
    }

    public void addLearner(long id, long match, long next) {
        if (voters.contains(id) || learners.contains(id)) {
            return;
        }
        Progress pr = new Progress(match, next, maxInflight, true);
        pr.setRecentActive(true);
        progress.put(id, pr);
        learners.add(id);
    }

    public void remove(long id) {
        progress.remove(id);
        learners.remove(id);
        if (voters.contains(id)) {
            TreeSet<Long> ids = new TreeSet<>(voters.voters());
            ids.remove(id);
            voters = new MajorityConfig(ids);
        }
    }

    /** Forgets the whole membership (before installing a snapshot's). */
    public void clear() {
        voters = new MajorityConfig(Set.of());
        learners.clear();
        progress.clear();
        votes.clear();
    }

    public ConfState confState() {
        return ConfState.newBuilder()
                .addAllVoters(new TreeSet<>(voters.voters()))
                .addAllLearners(learners)
                .build();
    }

    /** Largest index replicated on a quorum of voters. */
    public long committed() {
        return voters.committedIndex(id -> {
            Progress p = progress.get(id);
            return p == null ? 0 : p.match();
        });
    }

    public void resetVotes() {
        votes.clear();
    }

    /** Records a vote; the first answer of each peer in an election wins. */
    public void recordVote(long id, boolean granted) {
        votes.putIfAbsent(id, granted);
    }

    public VoteResult tallyVotes() {
        return voters.voteResult(votes);
    }

    public int grantedVotes() {
        int n = 0;
        for (Map.Entry<Long, Boolean> e : votes.entrySet()) {
            if (e.getValue() && voters.contains(e.getKey())) {
                n++;
            }
        }
        return n;
    }

    /**
     * Whether a quorum of voters was heard from since the last call (self always counts), then
     * clears the marks for the next round.
     */
    public boolean quorumActive(long self) {
        Map<Long, Boolean> active = new HashMap<>();
        for (Map.Entry<Long, Progress> e : progress.entrySet()) {
            if (e.getValue().isLearner()) {
                continue;
            }
            active.put(e.getKey(), e.getKey() == self || e.getValue().recentActive());
            if (e.getKey() != self) {
                e.getValue().setRecentActive(false);
            }
        }
        return voters.voteResult(active) == VoteResult.WON;
    }
}
