package io.etcdj.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.CompactionRequest;
import io.etcdj.api.etcdserverpb.LeaseGrantRequest;
import io.etcdj.api.etcdserverpb.LeaseRevokeRequest;
import io.etcdj.api.etcdserverpb.LeaseTimeToLiveRequest;
import io.etcdj.api.etcdserverpb.LeaseTimeToLiveResponse;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.api.etcdserverpb.PutResponse;
import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.api.etcdserverpb.RangeResponse;
import io.etcdj.api.mvccpb.KeyValue;
import io.etcdj.harness.EtcdClusterExtension;
import io.etcdj.harness.EtcdProcess;
import io.grpc.StatusRuntimeException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Durability of acknowledged writes: concurrent writers put keys through gRPC, the server process is
 * SIGKILLed (or SIGTERMed) while they write, and after a restart on the same data dir every put that was
 * acknowledged must be there with its value and the revision it was acknowledged with.
 */
class CrashIT {
    private static final int WRITERS = 4;
    private static final long WRITE_MILLIS = 3_000;

    private final EtcdProcess server = EtcdProcess.ours();
    @RegisterExtension
    final EtcdClusterExtension cluster = EtcdClusterExtension.of(server);

    /** What the server acknowledged for one key. */
    private record Ack(String value, long revision) {
    }

    @Test
    void everyAcknowledgedPutSurvivesKillNine() throws Exception {
        Map<String, Ack> acked = new HashMap<>();
        for (int round = 1; round <= 2; round++) {
            acked.putAll(writeWhile("crash/r" + round + "/", () -> server.kill9()));
            assertTrue(acked.size() > 50 * round, "too few writes were acknowledged to test anything: " + acked.size());
            server.start();
            verifyPresent(acked);
        }
    }

    @Test
    void everythingSurvivesSigterm() throws Exception {
        Map<String, Ack> acked = writeWhile("term/", () -> server.stop());
        assertTrue(acked.size() > 50, "too few writes were acknowledged to test anything: " + acked.size());
        server.start();
        verifyPresent(acked);
        try (GrpcEndpoint grpc = new GrpcEndpoint(server)) {
            PutResponse after = grpc.kv().put(PutRequest.newBuilder().setKey(ByteString.copyFromUtf8("term/after"))
                    .setValue(ByteString.copyFromUtf8("restart")).build());
            long maxAcked = acked.values().stream().mapToLong(Ack::revision).max().orElseThrow();
            assertTrue(after.getHeader().getRevision() > maxAcked, "revisions continue after the restart");
        }
    }

    @Test
    void leasesAndCompactionSurviveKillNine() throws Exception {
        long leaseId;
        long compactedAt;
        try (GrpcEndpoint grpc = new GrpcEndpoint(server)) {
            leaseId = grpc.lease().leaseGrant(LeaseGrantRequest.newBuilder().setTTL(600).build()).getID();
            put(grpc, "kept/leased", "v", leaseId);
            put(grpc, "kept/k", "1", 0);
            compactedAt = put(grpc, "kept/k", "2", 0);
            put(grpc, "kept/k", "3", 0);
            grpc.kv().compact(CompactionRequest.newBuilder().setRevision(compactedAt).setPhysical(true).build());
        }
        server.kill9();
        server.start();
        try (GrpcEndpoint grpc = new GrpcEndpoint(server)) {
            LeaseTimeToLiveResponse ttl = grpc.lease().leaseTimeToLive(LeaseTimeToLiveRequest.newBuilder()
                    .setID(leaseId).setKeys(true).build());
            assertEquals(600, ttl.getGrantedTTL(), ttl.toString());
            assertTrue(ttl.getTTL() > 0, "the lease outlives the restart: " + ttl);
            assertEquals(List.of("kept/leased"), ttl.getKeysList().stream().map(ByteString::toStringUtf8).toList());
            StatusRuntimeException compacted = Assertions.assertThrows(StatusRuntimeException.class,
                    () -> grpc.kv().range(RangeRequest.newBuilder().setKey(ByteString.copyFromUtf8("kept/k"))
                            .setRevision(compactedAt - 1).build()));
            assertEquals("etcdserver: mvcc: required revision has been compacted", compacted.getStatus().getDescription());
            RangeResponse atCompaction = grpc.kv().range(RangeRequest.newBuilder().setKey(ByteString.copyFromUtf8("kept/k"))
                    .setRevision(compactedAt).build());
            assertEquals("2", atCompaction.getKvs(0).getValue().toStringUtf8());
            grpc.lease().leaseRevoke(LeaseRevokeRequest.newBuilder().setID(leaseId).build());
            assertEquals(0, grpc.kv().range(RangeRequest.newBuilder().setKey(ByteString.copyFromUtf8("kept/leased")).build()).getCount());
        }
    }

    private static long put(GrpcEndpoint grpc, String key, String value, long lease) {
        return grpc.kv().put(PutRequest.newBuilder().setKey(ByteString.copyFromUtf8(key))
                .setValue(ByteString.copyFromUtf8(value)).setLease(lease).build()).getHeader().getRevision();
    }

    /** Runs the writers, calls {@code stopServer} while they are still writing, and returns what was acknowledged. */
    private Map<String, Ack> writeWhile(String prefix, Interruption stopServer) throws Exception {
        Map<String, Ack> acked = new ConcurrentHashMap<>();
        AtomicBoolean stop = new AtomicBoolean();
        ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
        try (GrpcEndpoint grpc = new GrpcEndpoint(server)) {
            List<Future<?>> writers = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                String writerPrefix = prefix + "w" + w + "/";
                writers.add(pool.submit(() -> write(grpc, writerPrefix, stop, acked)));
            }
            Thread.sleep(WRITE_MILLIS); // how long to write before the crash, not a timing assertion
            stopServer.run();
            stop.set(true);
            for (Future<?> f : writers) {
                f.get(30, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        return acked;
    }

    private static void write(GrpcEndpoint grpc, String prefix, AtomicBoolean stop, Map<String, Ack> acked) {
        for (int seq = 0; !stop.get(); seq++) {
            String key = prefix + String.format("%06d", seq);
            String value = "value-" + seq + "-" + prefix;
            try {
                PutResponse r = grpc.kv().put(PutRequest.newBuilder().setKey(ByteString.copyFromUtf8(key))
                        .setValue(ByteString.copyFromUtf8(value)).build());
                acked.put(key, new Ack(value, r.getHeader().getRevision()));
            } catch (StatusRuntimeException e) {
                return; // the server went away: this put was not acknowledged
            }
        }
    }

    private void verifyPresent(Map<String, Ack> acked) throws InterruptedException {
        try (GrpcEndpoint grpc = new GrpcEndpoint(server)) {
            RangeResponse all = grpc.kv().range(RangeRequest.newBuilder().setKey(ByteString.copyFromUtf8("\0"))
                    .setRangeEnd(ByteString.copyFromUtf8("\0")).build());
            long header = all.getHeader().getRevision();
            Map<String, KeyValue> stored = new HashMap<>();
            Set<Long> revisions = new HashSet<>();
            for (KeyValue kv : all.getKvsList()) {
                stored.put(kv.getKey().toStringUtf8(), kv);
                assertTrue(kv.getModRevision() <= header, "mod_revision " + kv.getModRevision() + " of "
                        + kv.getKey().toStringUtf8() + " is beyond the header revision " + header);
                assertTrue(revisions.add(kv.getModRevision()), "two keys share revision " + kv.getModRevision());
            }
            List<String> missing = new ArrayList<>();
            for (Map.Entry<String, Ack> e : acked.entrySet()) {
                KeyValue kv = stored.get(e.getKey());
                if (kv == null) {
                    missing.add(e.getKey());
                    continue;
                }
                assertEquals(e.getValue().value(), kv.getValue().toStringUtf8(), e.getKey());
                assertEquals(e.getValue().revision(), kv.getModRevision(), "revision of " + e.getKey());
                assertEquals(1, kv.getVersion(), e.getKey());
            }
            assertEquals(List.of(), missing.stream().sorted().limit(20).toList(),
                    missing.size() + " of " + acked.size() + " acknowledged puts are missing after the restart");
        }
    }

    @FunctionalInterface
    private interface Interruption {
        void run() throws Exception;
    }
}
