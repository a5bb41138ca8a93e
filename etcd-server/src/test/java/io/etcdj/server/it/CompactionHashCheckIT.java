package io.etcdj.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.harness.EtcdProcess;
import io.etcdj.harness.Eventually;
import io.etcdj.harness.ProcessCluster;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The compaction hash check (etcd 3.5's --experimental-compact-hash-check-enabled, 3.6's
 * feature gate CompactHashCheck): after a compaction the leader compares the hash each member
 * recorded for it. Agreeing members pass without an alarm; a member whose stored history was
 * altered while it was stopped gets the CORRUPT alarm, with its own member ID, after the next
 * compaction, and the cluster then refuses writes.
 */
class CompactionHashCheckIT {
    private static final Duration WAIT = Duration.ofSeconds(60);

    @Test
    void aFollowerWhoseHistoryDiffersGetsTheCorruptAlarmAfterACompaction() throws Exception {
        try (ProcessCluster c = ProcessCluster.start(EtcdProcess.Binary.OURS, 3,
                "--experimental-compact-hash-check-enabled=true", "--experimental-compact-hash-check-time=1s")) {
            Etcdctl ctl = new Etcdctl(c.member(0).endpoint());
            for (int i = 0; i < 5; i++) {
                ctl.run("put", "hashcheck/k" + i, "v" + i).ok();
            }
            ctl.run("compact", String.valueOf(revision(ctl)), "--physical").ok();
            awaitLog(c, "successfully checked hash on whole cluster");
            assertEquals("", ctl.run("alarm", "list").ok().stdout(), "no alarm while the members agree");

            EtcdProcess m3 = c.member(2);
            Etcdctl ctl3 = new Etcdctl(m3.endpoint());
            ctl.run("put", "hashcheck/k0", "changed").ok();
            ctl3.run("get", "hashcheck/k0", "--consistency=s").ok();
            String m3Id = field(ctl3.run("endpoint", "status", "-w", "json").ok().stdout(), "member_id");
            m3.stop();
            CorruptionIT.tamper(m3);
            m3.start();
            assertEquals("", ctl.run("alarm", "list").ok().stdout(), "nothing compared before the next compaction");
            ctl.run("put", "hashcheck/k1", "after restart").ok();
            ctl.run("compact", String.valueOf(revision(ctl)), "--physical").ok();

            String alarms = Eventually.poll(WAIT, Duration.ofMillis(200), () -> ctl.run("alarm", "list").stdout(),
                    a -> a.contains("alarm:CORRUPT"));
            assertEquals("memberID:" + m3Id + " alarm:CORRUPT", alarms.strip(),
                    "the altered member is named; leader logs:\n" + c.member(0).logTail());
            Etcdctl.Result put = ctl.run("put", "hashcheck/k", "v");
            assertEquals(1, put.exitCode(), put.toString());
            assertTrue(put.stderr().contains("etcdserver: corrupt cluster"), put.toString());
        }
    }

    private static long revision(Etcdctl ctl) {
        return Long.parseLong(field(ctl.run("endpoint", "status", "-w", "json").ok().stdout(), "revision"));
    }

    private static String field(String json, String name) {
        Matcher m = Pattern.compile("\"" + name + "\":(\\d+)").matcher(json);
        assertTrue(m.find(), name + " in " + json);
        return m.group(1);
    }

    /** Waits until some member (the leader) logged {@code line}. */
    private static void awaitLog(ProcessCluster c, String line) throws InterruptedException {
        Eventually.until("a member logging \"" + line + "\"; leader log:\n" + c.member(0).logTail(), WAIT,
                Duration.ofMillis(200), () -> c.members().stream().anyMatch(m -> m.logTail().contains(line)));
    }
}
