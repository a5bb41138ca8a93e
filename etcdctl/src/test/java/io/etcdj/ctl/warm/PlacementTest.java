package io.etcdj.ctl.warm;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Which etcdutl command lines the warm server may run: only those that name no relative path. */
class PlacementTest {

    @Test
    void absolutePathsAndPlainWordsRunInTheServer() {
        assertTrue(Placement.etcdutlRunsHere(List.of("version")));
        assertTrue(Placement.etcdutlRunsHere(List.of("snapshot", "status", "/tmp/s.db", "-w", "json")));
        assertTrue(Placement.etcdutlRunsHere(List.of("snapshot", "restore", "/tmp/s.db", "--data-dir=/tmp/d")));
        assertTrue(Placement.etcdutlRunsHere(List.of("defrag", "--data-dir", "/var/lib/etcd")));
    }

    @Test
    void relativePathsNeedTheCallersDirectory() {
        assertFalse(Placement.etcdutlRunsHere(List.of("snapshot", "status", "s.db")));
        assertFalse(Placement.etcdutlRunsHere(List.of("defrag", "--data-dir", "data")));
        assertFalse(Placement.etcdutlRunsHere(List.of("hashkv", "--data-dir=./data")));
        assertFalse(Placement.etcdutlRunsHere(List.of("snapshot", "restore", "/tmp/s.db", "--wal-dir=wal",
                "--data-dir=/tmp/d")));
    }

    @Test
    void restoreWithoutDataDirWritesIntoTheWorkingDirectory() {
        assertFalse(Placement.etcdutlRunsHere(List.of("snapshot", "restore", "/tmp/s.db")));
    }

    @Test
    void restoreAtATerminalRunsInItsOwnProcessForItsProgressLine() {
        List<String> restore = List.of("snapshot", "restore", "/srv/backup/s.db", "--data-dir=/srv/etcd/d");
        assertFalse(Placement.etcdutlRunsHere(restore, true));
        assertTrue(Placement.etcdutlRunsHere(restore, false));
        assertTrue(Placement.etcdutlRunsHere(List.of("snapshot", "status", "/srv/backup/s.db"), true));
    }
}
