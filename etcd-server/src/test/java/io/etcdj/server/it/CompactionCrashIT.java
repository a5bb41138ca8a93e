package io.etcdj.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.CompactionRequest;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.api.etcdserverpb.RangeResponse;
import io.etcdj.harness.EtcdClusterExtension;
import io.etcdj.harness.EtcdProcess;
import io.etcdj.harness.Eventually;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A member killed in the middle of a batched compaction (failpoint {@code compactAfterCommitBatch},
 * after its first batch of 10 revisions) resumes and finishes it when it starts again, as etcd does
 * from its scheduled and finished compact revisions; nothing but the compacted history is lost.
 */
class CompactionCrashIT {
    private static final int KEYS = 10;
    private static final int ROUNDS = 20;
    private static final Duration WAIT = Duration.ofSeconds(20);

    private final EtcdProcess server = crashing(EtcdProcess.ours("--compaction-batch-limit=10"));
    @RegisterExtension
    final EtcdClusterExtension cluster = EtcdClusterExtension.of(server);

    private static EtcdProcess crashing(EtcdProcess p) {
        p.jvmOptions(List.of("-Detcdj.failpoints=compactAfterCommitBatch=crash"));
        return p;
    }

    private static ByteString bs(String s) {
        return ByteString.copyFromUtf8(s);
    }

    @Test
    void aCompactionCutShortByACrashIsFinishedAfterTheRestart() throws Exception {
        long compactAt;
        try (GrpcEndpoint grpc = new GrpcEndpoint(server)) {
            long rev = 0;
            for (int round = 0; round < ROUNDS; round++) {
                for (int k = 0; k < KEYS; k++) {
                    rev = grpc.kv().put(PutRequest.newBuilder().setKey(bs("k" + k)).setValue(bs("v" + round)).build())
                            .getHeader().getRevision();
                }
            }
            compactAt = rev - KEYS; // the last round stays above the compaction
            grpc.kv().compact(CompactionRequest.newBuilder().setRevision(compactAt).build());
        }
        Eventually.reached(WAIT, () -> !server.isAlive());
        assertEquals(2, server.exitCode(), "the failpoint halts the member after the first batch");
        assertFalse(server.logSinceLaunch().contains("finished scheduled compaction"),
                "the crash came before the compaction finished");

        server.jvmOptions(List.of());
        server.start();
        String log = Eventually.poll(WAIT, Duration.ofMillis(50), server::logSinceLaunch,
                l -> l.contains("finished scheduled compaction"));
        // Two ways to finish it, both etcd's: the backend kept the scheduled compaction (its last durable
        // commit came after the compaction was scheduled) and the member resumes it; or the backend was
        // reopened on a durable commit from before it, and replaying the WAL applies the compaction again.
        boolean rolledBack = log.contains("backend reopened on its last durable commit");
        assertTrue(rolledBack
                || log.contains("\"msg\":\"resume scheduled compaction\",\"scheduled-compact-revision\":" + compactAt), log);
        assertTrue(log.contains("\"msg\":\"finished scheduled compaction\",\"compact-revision\":" + compactAt), log);
        try (GrpcEndpoint grpc = new GrpcEndpoint(server)) {
            long below = compactAt - 1;
            StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
                    () -> grpc.kv().range(RangeRequest.newBuilder().setKey(bs("k0")).setRevision(below).build()));
            assertEquals("etcdserver: mvcc: required revision has been compacted", e.getStatus().getDescription());
            for (int k = 0; k < KEYS; k++) {
                RangeResponse now = grpc.kv().range(RangeRequest.newBuilder().setKey(bs("k" + k)).build());
                assertEquals("v" + (ROUNDS - 1), now.getKvs(0).getValue().toStringUtf8());
                assertEquals(ROUNDS, now.getKvs(0).getVersion(), "versions count the compacted history too");
                RangeResponse at = grpc.kv().range(RangeRequest.newBuilder().setKey(bs("k" + k)).setRevision(compactAt).build());
                assertEquals("v" + (ROUNDS - 2), at.getKvs(0).getValue().toStringUtf8(), "what each key showed at the compaction is kept");
            }
            StatusRuntimeException again = assertThrows(StatusRuntimeException.class,
                    () -> grpc.kv().compact(CompactionRequest.newBuilder().setRevision(compactAt).build()));
            assertEquals("etcdserver: mvcc: required revision has been compacted", again.getStatus().getDescription());
        }
    }
}
