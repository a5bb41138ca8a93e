package io.etcdj.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.api.etcdserverpb.LeaseGrantRequest;
import io.etcdj.harness.EtcdProcess;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * HashKV parity with the real etcd 3.4: the same history (puts, overwrites, deletes, a
 * multi-key transaction, a key re-created after its deletion, a leased key) on both servers,
 * then {@code etcdctl endpoint hashkv} at every revision, before and after two compactions.
 * Compactions are physical: etcd compacts in the background and its read view keeps the dropped
 * revisions until the next backend commit, which --physical waits for.
 * The hashes must be equal number for number, and the revisions etcd refuses (at or below the
 * compaction, in the future) refused with the same text. After a restart ours, which rebuilds
 * its index from the backend, must still answer the same hashes.
 */
class HashKvDifferentialIT {
    /** A lease with a fixed ID, so the leased key's stored value is the same on both servers. */
    private static final long LEASE_ID = 0x7a11;

    @Test
    void hashKvEqualsEtcdsAtEveryRevisionBeforeAndAfterCompactions() throws Exception {
        List<String> real;
        try (EtcdProcess m = EtcdProcess.realEtcd()) {
            m.start();
            real = scenario(m, false);
        }
        List<String> ours;
        try (EtcdProcess m = EtcdProcess.ours()) {
            m.start();
            ours = scenario(m, true);
        }
        System.out.println("hashkv, etcd 3.4 and ours:\n" + String.join("\n", real));
        assertEquals(String.join("\n", real), String.join("\n", ours));
    }

    private static List<String> scenario(EtcdProcess m, boolean restart) throws Exception {
        Etcdctl ctl = new Etcdctl(m.endpoint());
        List<String> seen = new ArrayList<>();
        ctl.run("put", "a", "1").ok();                     // 2
        ctl.run("put", "b", "2").ok();                     // 3
        ctl.run("put", "a", "3").ok();                     // 4
        ctl.run("del", "b").ok();                          // 5: b's tombstone
        ctl.run("put", "c", "4").ok();                     // 6
        ctl.runWithInput("\nput d 5\nput e 6\nput c 7\n\n\n", "txn").ok(); // 7: three sub revisions
        ctl.run("put", "b", "again").ok();                 // 8: b's second generation
        ctl.run("del", "e").ok();                          // 9: e deleted at the first compaction point
        try (GrpcEndpoint grpc = new GrpcEndpoint(m)) {
            grpc.lease().leaseGrant(LeaseGrantRequest.newBuilder().setID(LEASE_ID).setTTL(600).build());
        }
        ctl.run("put", "f", "leased", "--lease=" + Long.toHexString(LEASE_ID)).ok(); // 10
        ctl.run("put", "a", "--ignore-value").ok();        // 11: keeps the value
        ctl.run("put", "d", "").ok();                      // 12: empty value
        assertEquals("12", field(ctl.run("endpoint", "status", "-w", "json").ok().stdout(), "revision"),
                "the scenario's revisions on " + m.describe());
        hashes(ctl, seen, "before compaction");
        ctl.run("compact", "9", "--physical").ok();
        ctl.run("put", "c", "8").ok();                     // 13: c kept at 9, changed after
        ctl.run("del", "d").ok();                          // 14: d kept at 9, deleted after
        ctl.run("put", "g", "new").ok();                   // 15
        hashes(ctl, seen, "after compacting at 9");
        ctl.run("compact", "13", "--physical").ok();
        ctl.run("del", "a", "--prefix").ok();              // 16
        ctl.run("del", "", "--from-key").ok();             // 17: every key deleted
        hashes(ctl, seen, "after compacting at 13");
        if (restart) {
            m.stop();
            m.start();
            List<String> again = new ArrayList<>();
            hashes(ctl, again, "after compacting at 13");
            assertEquals(String.join("\n", seen.subList(seen.size() - again.size(), seen.size())),
                    String.join("\n", again), "hashes after a restart");
        }
        return seen;
    }

    /** HashKV at the current revision and at every revision from 1 to one past the current one. */
    private static void hashes(Etcdctl ctl, List<String> seen, String when) {
        String current = ctl.run("endpoint", "hashkv", "-w", "json").ok().stdout();
        long rev = Long.parseLong(field(current, "revision"));
        seen.add(when + ", current revision " + rev + ": " + hashOf(current));
        for (long r = 1; r <= rev + 1; r++) {
            Etcdctl.Result res = ctl.run("endpoint", "hashkv", "-w", "json", "--rev=" + r);
            seen.add(when + ", --rev=" + r + ": " + (res.exitCode() == 0 ? hashOf(res.stdout()) : "exit "
                    + res.exitCode() + " " + lastLine(res.stderr())));
        }
    }

    private static String hashOf(String json) {
        assertTrue(json.contains("\"hash\""), json);
        return "hash " + field(json, "hash") + " compact_revision " + field(json, "compact_revision");
    }

    private static String field(String json, String name) {
        Matcher m = Pattern.compile("\"" + name + "\":(\\d+)").matcher(json);
        return m.find() ? m.group(1) : "none";
    }

    private static String lastLine(String s) {
        String[] lines = s.strip().split("\n");
        return lines[lines.length - 1];
    }
}
