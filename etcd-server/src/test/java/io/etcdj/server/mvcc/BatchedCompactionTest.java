package io.etcdj.server.mvcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.api.etcdserverpb.DeleteRangeRequest;
import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.harness.Eventually;
import io.etcdj.server.apply.StoreFixture;
import io.etcdj.server.backend.Bucket;
import io.etcdj.server.backend.Bytes;
import io.etcdj.server.backend.MetaKeys;
import io.etcdj.server.backend.ReadTx;
import io.etcdj.server.error.EtcdError;
import io.etcdj.server.error.EtcdException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compaction carried out in the background in batches (--compaction-batch-limit): the same
 * result and hash as in one go, applied at once for reads, and resumed after a crash between
 * batches, as etcd does with its scheduled and finished compact revisions.
 */
class BatchedCompactionTest {
    @TempDir
    Path dir;

    /** 20 keys written 15 times each, every fifth key deleted once midway: revisions 2..302 and more. */
    private static void history(StoreFixture f) {
        for (int round = 0; round < 15; round++) {
            for (int k = 0; k < 20; k++) {
                f.put("key" + k, "v" + round);
            }
            if (round == 7) {
                for (int k = 0; k < 20; k += 5) {
                    f.del(DeleteRangeRequest.newBuilder().setKey(StoreFixture.bs("key" + k)));
                }
            }
        }
    }

    private static List<String> keyBucket(StoreFixture f) {
        List<String> out = new ArrayList<>();
        try (ReadTx tx = f.backend.beginRead()) {
            tx.forEach(Bucket.KEY, null, null, (k, v) -> {
                out.add(HexFormat.of().formatHex(k) + "=" + HexFormat.of().formatHex(v));
                return true;
            });
        }
        return out;
    }

    private static long meta(StoreFixture f, byte[] key) {
        try (ReadTx tx = f.backend.beginRead()) {
            byte[] v = tx.get(Bucket.META, key);
            return v == null ? 0 : Bytes.toLong(v);
        }
    }

    private static long hashBefore(StoreFixture f, long rev) {
        try (ReadView v = f.store.openRead()) {
            return v.hashKv(rev)[0];
        }
    }

    private static void await(StoreFixture f, long rev) throws Exception {
        f.store.whenCompacted(rev).get(20, TimeUnit.SECONDS);
    }

    @Test
    void batchesLeaveWhatOneGoLeavesAndRecordTheSameHash() throws Exception {
        try (StoreFixture once = new StoreFixture(dir.resolve("once"));
             StoreFixture batched = new StoreFixture(dir.resolve("batched"))) {
            history(once);
            history(batched);
            long rev = 200;
            long expectedHash = hashBefore(once, rev);
            assertNull(once.compact(rev).error());
            batched.store.startBackgroundCompaction(7, 0);
            assertNull(batched.compact(rev).error());
            await(batched, rev);
            assertEquals(keyBucket(once), keyBucket(batched));
            assertEquals(expectedHash, once.store.compactionHashes().at(rev).hash());
            assertEquals(once.store.compactionHashes().at(rev), batched.store.compactionHashes().at(rev));
            assertEquals(rev, meta(batched, MetaKeys.FINISHED_COMPACT_REV));
            try (ReadView a = once.store.openRead(); ReadView b = batched.store.openRead()) {
                assertEquals(a.hashKv(0)[0], b.hashKv(0)[0], "HashKV of the compacted stores agree");
                assertEquals(a.hashKv(rev)[0], b.hashKv(rev)[0], "HashKV at the compaction revision agree");
            }
            assertTrue(keyBucket(batched).size() < 150, "the history below the compaction is gone");
        }
    }

    @Test
    void theCompactionAppliesAtOnceAndWritesGoOnBetweenBatches() throws Exception {
        try (StoreFixture f = new StoreFixture(dir)) {
            history(f);
            CountDownLatch inBatch = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            AtomicInteger batches = new AtomicInteger();
            f.store.compactions.afterBatch = () -> {
                if (batches.incrementAndGet() == 1) {
                    inBatch.countDown();
                    try {
                        release.await(20, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            };
            f.store.startBackgroundCompaction(10, 0);
            int before = keyBucket(f).size();
            assertNull(f.compact(250).error());
            assertTrue(inBatch.await(20, TimeUnit.SECONDS));
            EtcdException e = assertThrows(EtcdException.class,
                    () -> f.range(RangeRequest.newBuilder().setKey(StoreFixture.bs("key1")).setRevision(100)));
            assertEquals(EtcdError.COMPACTED, e.error(), "reads below the compaction are refused while it runs");
            assertEquals(EtcdError.COMPACTED, f.compact(250).error().error());
            assertNull(f.put("during", "x").error(), "a put applies while the compactor is between batches");
            assertFalse(f.store.whenCompacted(250).isDone());
            assertTrue(keyBucket(f).size() > before - 30, "only the first batch is gone");
            release.countDown();
            await(f, 250);
            assertEquals("x", f.range(RangeRequest.newBuilder().setKey(StoreFixture.bs("during"))).getKvs(0).getValue().toStringUtf8());
            assertTrue(batches.get() > 5, "many batches: " + batches.get());
        }
    }

    @Test
    void aCrashBetweenBatchesIsResumedOnRestartAndEndsAsAnUninterruptedOne() throws Exception {
        Path ref = dir.resolve("reference");
        Path crashed = dir.resolve("crashed");
        List<String> expected;
        try (StoreFixture r = new StoreFixture(ref)) {
            history(r);
            r.compact(200);
            expected = keyBucket(r);
        }
        StoreFixture f = new StoreFixture(crashed);
        try {
            history(f);
            AtomicInteger batches = new AtomicInteger();
            f.store.compactions.afterBatch = () -> {
                if (batches.incrementAndGet() == 3) {
                    // stands for the process being killed here: three batches are committed, no more
                    throw new IllegalStateException("killed");
                }
            };
            f.store.startBackgroundCompaction(10, 0);
            assertNull(f.compact(200).error());
            Eventually.until("three compaction batches", Duration.ofSeconds(20), Duration.ofMillis(5),
                    () -> batches.get() >= 3);
            f.store.close();
            assertEquals(200, meta(f, MetaKeys.SCHEDULED_COMPACT_REV));
            assertEquals(0, meta(f, MetaKeys.FINISHED_COMPACT_REV), "the crash came before the compaction finished");
            List<String> partial = keyBucket(f);
            assertNotEquals(expected, partial);

            f.reopen();
            assertEquals(200, f.store.compactRevision(), "the restarted member refuses reads below the compaction at once");
            assertEquals(EtcdError.COMPACTED, assertThrows(EtcdException.class,
                    () -> f.range(RangeRequest.newBuilder().setKey(StoreFixture.bs("key1")).setRevision(150))).error());
            f.store.startBackgroundCompaction(10, 0);
            await(f, 200);
            assertEquals(expected, keyBucket(f), "the resumed compaction leaves what an uninterrupted one leaves");
            assertEquals(200, meta(f, MetaKeys.FINISHED_COMPACT_REV));
            assertNull(f.store.compactionHashes().at(200), "an interrupted compaction's hash is not recorded, as etcd");
            assertNull(f.compact(280).error());
            await(f, 280);
            assertNotNull(f.store.compactionHashes().at(280), "the next one, after a finished one, is recorded again");
        } finally {
            f.close();
        }
    }
}
