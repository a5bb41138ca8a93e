package io.etcdj.etcdutl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.server.version.Versions;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Flags, argument counts, error texts and exit codes, as etcdutl 3.6 has them. */
class CommandLineTest {
    @TempDir
    Path dir;

    @Test
    void version() {
        Run r = Run.of("version");
        assertEquals(0, r.code());
        assertEquals("etcdutl version: " + Versions.SERVER + "\nAPI version: 3.6\n", r.out());
    }

    @Test
    void statusNeedsExactlyOneArgument() {
        Run r = Run.of("snapshot", "status");
        assertEquals(128, r.code());
        assertEquals("Error: snapshot status requires exactly one argument", r.error());
        assertEquals(128, Run.of("snapshot", "status", "a", "b").code());
    }

    @Test
    void statusOfAMissingFile() {
        Path missing = dir.resolve("nofile");
        Run r = Run.of("snapshot", "status", missing.toString());
        assertEquals(1, r.code());
        assertEquals("Error: stat " + missing + ": no such file or directory", r.error());
    }

    @Test
    void unsupportedOutputFormat() {
        Run r = Run.of("-w", "xml", "version");
        assertEquals(4, r.code());
        assertEquals("Error: unsupported output format", r.error());
    }

    @Test
    void restoreNeedsOneFileAndMarkCompactedWithBump() {
        Run none = Run.of("snapshot", "restore");
        assertEquals(128, none.code());
        assertEquals("Error: snapshot restore requires exactly one argument", none.error());
        for (String[] args : new String[][] {
                {"snapshot", "restore", "x.db", "--bump-revision", "5"},
                {"snapshot", "restore", "x.db", "--mark-compacted"}}) {
            Run r = Run.of(args);
            assertEquals(128, r.code());
            assertEquals("Error: --mark-compacted required if --revision-bump > 0", r.error());
        }
        Run bad = Run.of("snapshot", "restore", "x.db", "--bump-revision", "-1");
        assertEquals(1, bad.code());
        assertEquals("Error: invalid argument \"-1\" for \"--bump-revision\" flag: strconv.ParseUint: parsing \"-1\": invalid syntax",
                bad.error());
    }

    @Test
    void unknownFlagsAndCommands() {
        Run flag = Run.of("snapshot", "status", "--foo", "x");
        assertEquals(1, flag.code());
        assertEquals("Error: unknown flag: --foo", flag.err().strip().split("\n")[0]);
        Run cmd = Run.of("backup");
        assertEquals(1, cmd.code());
        assertEquals("Error: unknown command \"backup\" for \"etcdutl\"", cmd.err().strip().split("\n")[0]);
    }

    @Test
    void snapshotSavePointsToEtcdctlAndIsHidden() {
        Run r = Run.of("snapshot", "save", "x.db");
        assertEquals(128, r.code());
        assertEquals("Error: In order to download snapshot use: `etcdctl snapshot save ...`", r.error());
        assertFalse(Run.of("snapshot").out().contains("save"));
    }

    @Test
    void defragNeedsADataDir() {
        Run r = Run.of("defrag");
        assertEquals(1, r.code());
        assertEquals("Error: required flag(s) \"data-dir\" not set", r.error());
        Path missing = dir.resolve("none");
        Run m = Run.of("defrag", "--data-dir", missing.toString());
        assertEquals(1, m.code());
        assertEquals("Error: Failed to defragment etcd data[" + missing + "] (stat " + missing
                + ": no such file or directory)", m.error());
    }

    @Test
    void hashkvArguments() {
        Run r = Run.of("hashkv");
        assertEquals(1, r.code());
        assertEquals("Error: accepts 1 arg(s), received 0", r.error());
        Run rev = Run.of("hashkv", "f", "--rev", "x");
        assertEquals("Error: invalid argument \"x\" for \"--rev\" flag: strconv.ParseInt: parsing \"x\": invalid syntax",
                rev.error());
    }

    @Test
    void restoreTakesTheInitialMemoryMapSizeAsAUint64() {
        // accepted (no effect on LMDB): the run goes on to the missing snapshot file
        Run ok = Run.of("snapshot", "restore", dir.resolve("missing.db").toString(), "--initial-memory-map-size=10000000",
                "--data-dir", dir.resolve("d").toString());
        assertTrue(ok.error().contains("missing.db"), ok.err());
        Run bad = Run.of("snapshot", "restore", "x.db", "--initial-memory-map-size=-1");
        assertEquals(1, bad.code());
        assertEquals("Error: invalid argument \"-1\" for \"--initial-memory-map-size\" flag: strconv.ParseUint: parsing "
                + "\"-1\": invalid syntax", bad.error());
    }

    @Test
    void helpListsOnlyBuiltCommands() {
        Run r = Run.of("--help");
        assertEquals(0, r.code());
        for (String c : new String[] {"completion", "defrag", "hashkv", "snapshot", "version"}) {
            assertTrue(r.out().contains(c), r.out());
        }
        assertFalse(r.out().contains("migrate"));
        assertFalse(r.out().contains("backup"));
    }

    @Test
    void aFileThatIsNotABackendIsAnErrorNotAStackTrace() throws Exception {
        Path junk = dir.resolve("junk.db");
        Files.write(junk, new byte[8192]);
        Run r = Run.of("snapshot", "status", junk.toString());
        assertEquals(1, r.code());
        assertTrue(r.error().startsWith("Error: cannot open database at " + junk), r.err());
        assertFalse(r.err().contains("\tat "), r.err());
    }

    @Test
    void badFlagsAndValuesInPflagsAndStrconvsWords() {
        Run w = Run.of("version", "-w");
        assertEquals(1, w.code());
        assertEquals("Error: flag needs an argument: 'w' in -w", w.error());
        assertEquals("Error: unknown shorthand flag: 'x' in -xyz=1", Run.of("snapshot", "status", "-xyz=1").error());
        assertEquals("Error: invalid argument \"99999999999999999999\" for \"--rev\" flag: strconv.ParseInt: parsing "
                + "\"99999999999999999999\": value out of range", Run.of("hashkv", "f", "--rev", "99999999999999999999").error());
        Run bool = Run.of("snapshot", "restore", "x.db", "--mark-compacted=yes");
        assertEquals(1, bool.code());
        assertEquals("Error: invalid argument \"yes\" for \"--mark-compacted\" flag: strconv.ParseBool: parsing \"yes\": "
                + "invalid syntax", bool.error());
    }
}
