package io.etcdj.robustness;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which member led which term, from polls of every member's Status, and the terms two members
 * claimed: never two in a real cluster.
 *
 * <p>A Status answer is not the Raft state at one instant, and etcd's is behind it in two ways. It
 * reads the leader and the term separately, so one answer taken while an election completes can
 * pair the new leader with the old term; and etcd 3.4's {@code raft_term} is the term of the last
 * entry the member applied, so a member that has just won term 5 reports itself as leader of the
 * term before until the first entry of its own term is committed and applied (with a slowed link,
 * for several polls). So a claim counts only when it is the last term a member reported during
 * one unbroken run of polls in which it named itself leader, and only when it reported that term
 * in two polls in a row.
 */
final class LeaderClaims {
    /** One member's unbroken run of polls naming itself leader: the term it reports now, for how many polls. */
    private static final class Run {
        long term = -1;
        int polls;
    }

    private final Map<String, Run> runs = new HashMap<>();
    /** Each term's members whose claim on it counted, in the order seen. */
    private final Map<Long, Set<String>> leadersOfTerm = new LinkedHashMap<>();

    /** One poll's answer from {@code member}: whether it named itself leader, and the term it reported. */
    void observe(String member, boolean leader, long term) {
        Run run = runs.get(member);
        if (!leader) {
            if (run != null) {
                count(member, run);
                runs.remove(member);
            }
            return;
        }
        if (run == null) {
            run = new Run();
            runs.put(member, run);
        }
        if (run.term == term) {
            run.polls++;
        } else {
            run.term = term;
            run.polls = 1;
        }
    }

    /** A member that did not answer ends its run as one that answered "not leader" would. */
    void noAnswer(String member) {
        observe(member, false, 0);
    }

    private void count(String member, Run run) {
        if (run.polls >= 2) {
            leadersOfTerm.computeIfAbsent(run.term, t -> new LinkedHashSet<>()).add(member);
        }
    }

    /** Ends every run in progress (the polls are over). */
    void finish() {
        runs.forEach(this::count);
        runs.clear();
    }

    /** "m1 and m2 both lead term 7" for every term more than one member claimed. */
    List<String> violations() {
        List<String> out = new ArrayList<>();
        leadersOfTerm.forEach((term, members) -> {
            if (members.size() > 1) {
                out.add(String.join(" and ", members) + " both lead term " + term);
            }
        });
        return out;
    }

    /** How many terms had a leader that counted. */
    int terms() {
        return leadersOfTerm.size();
    }
}
