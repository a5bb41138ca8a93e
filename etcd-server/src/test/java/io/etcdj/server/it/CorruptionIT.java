package io.etcdj.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.etcdj.api.mvccpb.KeyValue;
import io.etcdj.harness.EtcdProcess;
import io.etcdj.harness.Eventually;
import io.etcdj.harness.ProcessCluster;
import io.etcdj.server.backend.Backend;
import io.etcdj.server.backend.Bucket;
import io.etcdj.server.backend.WriteTx;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Corruption detection: a member whose backend was altered behind its back (the last revision's
 * value rewritten while it was stopped) is refused at start by the initial check, and found by
 * the leader's periodic check, which raises CORRUPT so the cluster stops serving key-value
 * requests.
 */
class CorruptionIT {
    private static final Duration WAIT = Duration.ofSeconds(60);

    /** Rewrites the value of the newest revision in a stopped member's backend. */
    static void tamper(EtcdProcess m) {
        try (Backend b = Backend.open(m.dataDir().resolve("member/snap/db"), 64L << 20)) {
            AtomicReference<byte[]> lastKey = new AtomicReference<>();
            AtomicReference<byte[]> lastValue = new AtomicReference<>();
            try (var tx = b.beginRead()) {
                tx.forEach(Bucket.KEY, null, null, (k, v) -> {
                    lastKey.set(k);
                    lastValue.set(v);
                    return true;
                });
            }
            KeyValue kv = KeyValue.parseFrom(lastValue.get()).toBuilder()
                    .setValue(ByteString.copyFromUtf8("tampered")).build();
            try (WriteTx tx = b.beginWrite()) {
                tx.put(Bucket.KEY, lastKey.get(), kv.toByteArray());
                tx.commit();
            }
        } catch (InvalidProtocolBufferException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void theInitialCheckRefusesToStartAMemberWhoseDataDiffers() throws Exception {
        try (ProcessCluster c = ProcessCluster.start(EtcdProcess.Binary.OURS, 3, "--experimental-initial-corrupt-check=true")) {
            Etcdctl ctl = new Etcdctl(c.member(0).endpoint());
            ctl.run("put", "corrupt/k", "v1").ok();
            new Etcdctl(c.member(2).endpoint()).run("get", "corrupt/k", "--consistency=s").ok();
            EtcdProcess m3 = c.member(2);
            m3.stop();
            tamper(m3);
            m3.launch();
            Eventually.reached(WAIT, () -> !m3.isAlive());
            assertFalse(m3.isAlive(), "started with altered data; log:\n" + m3.logTail());
            assertEquals(1, m3.exitCode());
            assertTrue(m3.logTail().contains("found data inconsistency with peers"), m3.logTail());
        }
    }

    @Test
    void thePeriodicCheckRaisesCorruptAndTheClusterRefusesRequests() throws Exception {
        try (ProcessCluster c = ProcessCluster.start(EtcdProcess.Binary.OURS, 3, "--experimental-corrupt-check-time=1s")) {
            Etcdctl ctl = new Etcdctl(c.member(0).endpoint());
            ctl.run("put", "corrupt/k", "v1").ok();
            assertEquals("", ctl.run("alarm", "list").ok().stdout(), "no alarm while the data agree");
            new Etcdctl(c.member(2).endpoint()).run("get", "corrupt/k", "--consistency=s").ok();
            EtcdProcess m3 = c.member(2);
            m3.stop();
            tamper(m3);
            m3.start();
            String alarms = Eventually.poll(WAIT, Duration.ofMillis(200), () -> ctl.run("alarm", "list").stdout(),
                    a -> a.contains("alarm:CORRUPT"));
            assertTrue(alarms.contains("alarm:CORRUPT"), "no CORRUPT alarm; leader log:\n" + c.member(0).logTail());
            Etcdctl.Result put = ctl.run("put", "corrupt/k", "v2");
            assertEquals(1, put.exitCode(), put.toString());
            assertTrue(put.stderr().contains("etcdserver: corrupt cluster"), put.toString());
        }
    }
}
