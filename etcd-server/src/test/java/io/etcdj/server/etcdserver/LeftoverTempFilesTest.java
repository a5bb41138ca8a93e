package io.etcdj.server.etcdserver;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Start-up removes the member's own temporary files a crash left, and nothing else. */
class LeftoverTempFilesTest {
    @TempDir
    Path dataDir;

    @Test
    void theMembersTemporaryFilesGoEverythingElseStays() throws Exception {
        Path snap = dataDir.resolve("member").resolve("snap");
        Files.createDirectories(snap);
        Files.createDirectories(dataDir.resolve("member").resolve("wal"));
        // what the member writes aside: the Snapshot RPC's file (Files.createTempFile names), peer
        // snapshots, a defragment's copy, the durable-commit record being replaced
        List<String> leftovers = List.of("snapshot1234567890.bbolt.tmp", "member/snap/outgoing42.snap.db",
                "member/snap/incoming7.snap.db", "member/snap/db.defrag", "member/snap/db-durable.tmp");
        // what must stay: the member's files, and files of the same kind under other names or places
        List<String> kept = List.of("member/snap/db", "member/snap/db-durable", "member/snap/0000000000000002-0000000000000009.snap",
                "member/wal/0000000000000000-0000000000000000.wal", "backup.snapshot.db", "snapshot.db",
                "member/snap/snapshot9.bbolt.tmp", "notes.bbolt.tmp", "member/snap/incoming.snap", "member.etcd");
        for (String f : leftovers) {
            Files.write(dataDir.resolve(f), new byte[] {1});
        }
        for (String f : kept) {
            Files.write(dataDir.resolve(f), new byte[] {1});
        }

        List<Path> removed = LeftoverTempFiles.remove(dataDir, snap);

        assertEquals(leftovers.stream().map(dataDir::resolve).collect(Collectors.toSet()), Set.copyOf(removed));
        try (Stream<Path> s = Files.walk(dataDir)) {
            assertEquals(kept.stream().map(dataDir::resolve).collect(Collectors.toSet()),
                    s.filter(Files::isRegularFile).collect(Collectors.toSet()));
        }
    }

    @Test
    void aDataDirWithoutAMemberYetIsFine() throws Exception {
        assertEquals(List.of(), LeftoverTempFiles.remove(dataDir.resolve("new"), dataDir.resolve("new/member/snap")));
    }
}
