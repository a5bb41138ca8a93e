package io.etcdj.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.ByteString;
import io.etcdj.harness.EtcdProcess;
import io.etcdj.harness.Eventually;
import io.etcdj.raftpb.Entry;
import io.etcdj.raftpb.HardState;
import io.etcdj.server.wal.Wal;
import io.etcdj.server.wal.WalOptions;
import io.etcdj.server.wal.WalReadResult;
import io.etcdj.server.wal.WalSnapshot;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A committed entry that does not decode stops the member, as etcd panics ("unmarshal should
 * never fail"), instead of being skipped: skipping it would make this member's state differ
 * from its peers' for good. The entry is appended to a stopped member's WAL as committed; each
 * restart exits 1 with one fatal line naming its index, and nothing of it is applied.
 */
class CorruptEntryIT {
    @Test
    void anUnreadableCommittedEntryStopsTheMemberOnEveryStartWithOneFatalLine() throws Exception {
        try (EtcdProcess m = EtcdProcess.ours()) {
            m.start();
            Etcdctl ctl = new Etcdctl(m.endpoint());
            ctl.run("put", "before", "v").ok();
            m.stop();
            long index = appendCommittedGarbage(m.dataDir().resolve("member").resolve("wal"));

            for (int start = 1; start <= 2; start++) {
                m.launch();
                Eventually.until(m.describe() + " stops", Duration.ofSeconds(90), () -> !m.isAlive());
                assertEquals(1, m.exitCode(), m.logTail());
                List<String> fatal = m.logSinceLaunch().lines().filter(l -> l.contains("\"level\":\"fatal\"")).toList();
                assertEquals(1, fatal.size(), "one fatal line on start " + start + ": " + m.logTail());
                JsonNode line = new ObjectMapper().readTree(fatal.get(0));
                assertEquals("unmarshal should never fail", line.get("msg").asText());
                assertEquals(index, line.get("index").asLong());
                assertTrue(line.get("stacktrace").asText().contains("ApplyLoop.parse"), fatal.get(0));
            }
        }
    }

    /** Appends an entry whose bytes are no InternalRaftRequest, after the last one, and marks it committed. */
    private static long appendCommittedGarbage(Path walDir) throws Exception {
        try (Wal wal = Wal.open(walDir, WalSnapshot.NONE, WalOptions.DEFAULT)) {
            WalReadResult r = wal.readAll();
            Entry last = r.entries().get(r.entries().size() - 1);
            long index = last.getIndex() + 1;
            Entry garbage = Entry.newBuilder().setIndex(index).setTerm(last.getTerm())
                    .setData(ByteString.copyFrom(new byte[] {0x0a, (byte) 0xff})).build();
            HardState hs = r.hardState().toBuilder().setCommit(index).build();
            wal.save(hs, List.of(garbage));
            return index;
        }
    }
}
