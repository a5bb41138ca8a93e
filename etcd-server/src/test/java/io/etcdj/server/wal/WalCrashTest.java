package io.etcdj.server.wal;

import static io.etcdj.server.wal.Entries.large;
import static io.etcdj.server.wal.Entries.metadata;
import static io.etcdj.server.wal.Entries.range;
import static io.etcdj.server.wal.Entries.state;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.etcdj.raftpb.Entry;
import io.etcdj.raftpb.HardState;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Crash at every write point of a workload (creation, saves of several sizes, a truncating new
 * leader, snapshot markers, segment cuts), reopen, and check that the log is exactly the result of
 * some prefix of the saves: every save that returned (and was synced, for a power loss) is there
 * in full, and nothing of a write that did not return is visible in part.
 */
class WalCrashTest {

    private static final Path DIR = Path.of("/sim/member/wal");
    private static final double[] TORN_FRACTIONS = {0.0, 0.3, 0.999};

    /** One call of the workload. */
    private record Step(HardState state, List<Entry> entries, WalSnapshot marker) {
        boolean syncs(HardState before) {
            return marker != null || !entries.isEmpty()
                    || state.getTerm() != before.getTerm() || state.getVote() != before.getVote();
        }
    }

    /** The log a reader must see after applying steps 0..n-1. */
    private record Expected(HardState state, List<Entry> entries) {
    }

    private static List<Step> workload() {
        List<Step> steps = new ArrayList<>();
        steps.add(new Step(state(1, 1, 0), range(1, 1, 1), null));
        steps.add(new Step(state(1, 1, 1), range(2, 4, 1), null));
        steps.add(new Step(state(1, 1, 3), List.of(), null)); // commit only: not synced
        steps.add(new Step(state(1, 1, 4), range(5, 20, 1), null));
        steps.add(new Step(state(1, 1, 4), List.of(), new WalSnapshot(4, 1)));
        steps.add(new Step(state(2, 2, 4), range(6, 8, 2), null)); // a new leader overwrote 6..20
        steps.add(new Step(state(2, 2, 8), range(9, 9, 2), null));
        steps.add(new Step(state(3, 3, 8), List.of(), null)); // new term and vote
        steps.add(new Step(state(3, 3, 9), range(10, 30, 3), null));
        steps.add(new Step(state(3, 3, 30), range(31, 31, 3), null));
        for (long i = 32; i <= 50; i++) {
            steps.add(new Step(state(3, 3, i - 1), range(i, i, 3), null));
            if (i % 5 == 0) {
                steps.add(new Step(state(3, 3, i), List.of(), null));
            }
        }
        // one batch longer than a part (RecordWriter.PART_BYTES): written in three parts, a crash
        // between them must leave none of it
        steps.add(new Step(state(3, 3, 50), large(51, 55, 3, 500 * 1024), null));
        steps.add(new Step(state(3, 3, 50), List.of(), new WalSnapshot(40, 3)));
        return steps;
    }

    private static List<Expected> expectations(List<Step> steps) {
        List<Expected> out = new ArrayList<>();
        HardState hs = HardState.getDefaultInstance();
        List<Entry> log = new ArrayList<>();
        out.add(new Expected(hs, List.copyOf(log)));
        for (Step s : steps) {
            for (Entry e : s.entries()) {
                log.subList((int) e.getIndex() - 1, log.size()).clear();
                log.add(e);
            }
            hs = s.state();
            out.add(new Expected(hs, List.copyOf(log)));
        }
        return out;
    }

    private static WalOptions options(SimulatedDisk disk) {
        return WalOptions.builder().diskIo(disk).segmentSizeBytes(1024).build();
    }

    /** Runs the workload; returns how many steps returned and how many of those are surely durable. */
    private static int[] run(SimulatedDisk disk, List<Step> steps, boolean[] created) throws IOException {
        int returned = 0;
        int durable = 0;
        try (Wal wal = Wal.create(DIR, metadata(), options(disk))) {
            created[0] = true;
            HardState last = HardState.getDefaultInstance();
            for (Step s : steps) {
                if (s.marker() != null) {
                    wal.saveSnapshot(s.marker());
                } else {
                    wal.save(s.state(), s.entries());
                }
                returned++;
                if (s.syncs(last)) {
                    durable = returned;
                }
                last = s.state();
            }
        } catch (SimulatedCrash crash) {
            // the process died here
        }
        return new int[] {returned, durable};
    }

    @ParameterizedTest
    @EnumSource(SimulatedDisk.Crash.class)
    void everyAcknowledgedSaveSurvivesACrashAtEveryWritePoint(SimulatedDisk.Crash kind) throws IOException {
        List<Step> steps = workload();
        List<Expected> expected = expectations(steps);
        SimulatedDisk clean = fresh();
        run(clean, steps, new boolean[1]);
        int writePoints = clean.mutations();
        int segments = clean.list(DIR).size();
        assertTrue(segments >= 4, "the workload should cut several segments, got " + segments);

        for (int k = 1; k <= writePoints; k++) {
            for (double torn : TORN_FRACTIONS) {
                String where = kind + " at write point " + k + " keeping " + torn + " of the write";
                SimulatedDisk disk = fresh();
                disk.crashAt(k, torn);
                boolean[] created = new boolean[1];
                int[] progress = run(disk, steps, created);
                SimulatedDisk after = disk.afterCrash(kind);
                if (!Wal.exists(DIR, after)) {
                    assertFalse(created[0], where + ": create returned but no WAL exists");
                    continue;
                }
                int mustHave = kind == SimulatedDisk.Crash.PROCESS ? progress[0] : progress[1];
                checkRecovered(after, expected, mustHave, progress[0] + 1, where);
            }
        }
    }

    private static void checkRecovered(SimulatedDisk disk, List<Expected> expected, int atLeast, int atMost,
            String where) throws IOException {
        WalReadResult r;
        try (Wal wal = Wal.open(DIR, WalSnapshot.NONE, options(disk))) {
            r = wal.readAll();
            // The repaired log must take new writes and read them back.
            long next = r.entries().isEmpty() ? 1 : r.entries().get(r.entries().size() - 1).getIndex() + 1;
            wal.save(state(9, 9, 0), range(next, next, 9));
        } catch (WalException e) {
            throw new AssertionError(where + ": " + e.getMessage(), e);
        }
        int matched = -1;
        for (int n = Math.min(atMost, expected.size() - 1); n >= atLeast && matched < 0; n--) {
            Expected e = expected.get(n);
            if (e.entries().equals(r.entries()) && e.state().equals(r.hardState())) {
                matched = n;
            }
        }
        if (matched < 0) {
            fail(where + ": recovered " + r.entries().size() + " entries and " + r.hardState().toString().replace('\n', ' ')
                    + ", which is no state between step " + atLeast + " and step " + atMost);
        }
        try (Wal wal = Wal.open(DIR, WalSnapshot.NONE, options(disk))) {
            WalReadResult again = wal.readAll();
            assertEquals(state(9, 9, 0), again.hardState(), where);
            assertEquals(r.entries().size() + 1, again.entries().size(), where);
        }
    }

    private static SimulatedDisk fresh() {
        SimulatedDisk disk = new SimulatedDisk();
        disk.createDurableDirectories(DIR.getParent());
        return disk;
    }
}
