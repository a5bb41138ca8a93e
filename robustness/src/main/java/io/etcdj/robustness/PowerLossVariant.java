package io.etcdj.robustness;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * When a power-loss round cuts the power, and how: a {@link Trigger} (the moment) and whether the
 * un-synced pages are all lost ("cut") or a seeded subset of them reached the disk ("torn").
 * Written as TRIGGER or TRIGGER+torn ("defrag+torn"); "cut" alone is random+cut and "torn" alone is
 * random+torn.
 */
record PowerLossVariant(Trigger trigger, boolean torn) {
    /** The moment of the cut. */
    enum Trigger {
        /** 1.5-4 s after the first acknowledged write */
        RANDOM("random"),
        /** within 100 ms of a new raft snapshot file (--snapshot-count=100) */
        SNAPSHOT("snapshot"),
        /** within 150 ms of defragment answering on every member, after a raft snapshot (--snapshot-count=100) */
        DEFRAG("defrag"),
        /** within 300 ms of a compaction answering */
        COMPACTION("compaction"),
        /** within 100 ms of a new WAL segment (1 MiB values fill the 64 MiB segment) */
        WAL_CUT("wal-cut"),
        /** 0-2 s after the last member was added, started and serves (three members only) */
        MEMBER_ADD("member-add");

        final String label;

        Trigger(String label) {
            this.label = label;
        }

        /** The server flags the trigger needs (a small snapshot count makes snapshots happen). */
        List<String> flags() {
            return this == SNAPSHOT || this == DEFRAG ? List.of("--snapshot-count=100") : List.of();
        }
    }

    String label() {
        return trigger.label + (torn ? "+torn" : "+cut");
    }

    /** Every variant that applies to a cluster of this many members: each trigger, cut and torn. */
    static List<PowerLossVariant> all(int members) {
        List<PowerLossVariant> out = new ArrayList<>();
        for (Trigger t : Trigger.values()) {
            if (t == Trigger.MEMBER_ADD && members < 3) {
                continue;
            }
            out.add(new PowerLossVariant(t, false));
            out.add(new PowerLossVariant(t, true));
        }
        return out;
    }

    /** Parses a comma-separated list of variant names, or "all". */
    static List<PowerLossVariant> parse(String names, int members) {
        if (names.equals("all")) {
            return all(members);
        }
        List<PowerLossVariant> out = new ArrayList<>();
        for (String name : names.split(",")) {
            out.add(parseOne(name.trim().toLowerCase(Locale.ROOT), members));
        }
        return out;
    }

    private static PowerLossVariant parseOne(String name, int members) {
        if (name.equals("cut") || name.equals("torn")) {
            return new PowerLossVariant(Trigger.RANDOM, name.equals("torn"));
        }
        String[] parts = name.split("\\+", 2);
        boolean torn = parts.length == 2 && parts[1].equals("torn");
        if (parts.length == 2 && !torn && !parts[1].equals("cut")) {
            throw new IllegalArgumentException("unknown variant " + name + ": after '+' comes cut or torn");
        }
        for (Trigger t : Trigger.values()) {
            if (t.label.equals(parts[0])) {
                if (t == Trigger.MEMBER_ADD && members < 3) {
                    throw new IllegalArgumentException("variant member-add needs --members 3");
                }
                return new PowerLossVariant(t, torn);
            }
        }
        throw new IllegalArgumentException("unknown variant " + name + " (all, cut, torn, or TRIGGER[+cut|+torn] with TRIGGER one of"
                + " random, snapshot, defrag, compaction, wal-cut, member-add)");
    }
}
