package io.etcdj.etcdutl;

import static io.etcdj.etcdutl.ServedData.JSON;
import static io.etcdj.etcdutl.SnapshotRpcIT.assertNoSnapshotLeftIn;
import static io.etcdj.etcdutl.SnapshotRpcIT.hasItsSha256;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.KVGrpc;
import io.etcdj.api.etcdserverpb.MaintenanceGrpc;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.api.etcdserverpb.RequestOp;
import io.etcdj.api.etcdserverpb.SnapshotRequest;
import io.etcdj.api.etcdserverpb.SnapshotResponse;
import io.etcdj.api.etcdserverpb.TxnRequest;
import io.etcdj.harness.EtcdProcess;
import io.etcdj.harness.Eventually;
import io.etcdj.harness.Resources;
import io.etcdj.harness.ServerCommand;
import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Metadata;
import io.grpc.Status;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The Snapshot RPC under load: a database far larger than the member's memory streams to a client
 * that stalls, and a snapshot taken while writers run holds exactly one revision.
 */
class SnapshotStreamIT {
    @RegisterExtension
    static final Resources RES = new Resources();

    /** 200 transactions of 100 keys of 10 KB: 200 MB of values, 20,000 keys. */
    private static final int TXNS = 200;
    private static final int KEYS_PER_TXN = 100;
    private static final int VALUE_BYTES = 10_000;

    @Test
    void aDatabaseLargerThanTheMembersMemoryStreamsToAClientThatStalls() throws Exception {
        Path home = RES.dir("snapshot-stream-it-");
        // a 128 MB heap and 32 MB of direct buffers: a member that held the file, or queued the
        // stream for a stalled client, would run out of memory; Raft's log is compacted often so
        // the writes themselves do not pile up in memory
        EtcdProcess member = RES.track(EtcdProcess.of(ServerCommand.ours(), "big", home,
                "--snapshot-count=20", "--snapshot-catchup-entries=20", "--quota-backend-bytes=" + (2L << 30)));
        member.jvmOptions(List.of("-Xmx128m", "-XX:MaxDirectMemorySize=32m", "-XX:+ExitOnOutOfMemoryError"));
        member.start();
        ManagedChannel channel = channel(member);
        try {
            KVGrpc.KVBlockingStub kv = KVGrpc.newBlockingStub(channel);
            ByteString value = ByteString.copyFrom(new byte[VALUE_BYTES]);
            for (int t = 0; t < TXNS; t++) {
                TxnRequest.Builder txn = TxnRequest.newBuilder();
                for (int i = 0; i < KEYS_PER_TXN; i++) {
                    txn.addSuccess(RequestOp.newBuilder().setRequestPut(PutRequest.newBuilder()
                            .setKey(ByteString.copyFromUtf8(String.format("big/%03d/%03d", t, i))).setValue(value)));
                }
                kv.txn(txn.build());
            }
            long revision = ServedData.revision(member.endpoint());

            Path file = home.resolve("stalled.db");
            long chunks = stalledSnapshot(channel, file);
            assertTrue(Files.size(file) > (long) TXNS * KEYS_PER_TXN * VALUE_BYTES, "size " + Files.size(file));
            assertTrue(chunks > 1000, chunks + " chunks");
            assertTrue(hasItsSha256(file), "the last chunk is the SHA-256 of the others");
            JsonNode status = JSON.readTree(Tool.etcdctl("127.0.0.1:1", "snapshot", "status", file.toString(), "-w", "json").ok().out());
            assertEquals(revision, status.get("revision").asLong());
            // keys, plus auth, members and meta entries
            assertTrue(status.get("totalKey").asLong() >= (long) TXNS * KEYS_PER_TXN, status.toString());
            assertTrue(member.isAlive(), "the member survived the stream");
            Tool.etcdctl(member.endpoint(), "endpoint", "health").ok();
            assertNoSnapshotLeftIn(member.dataDir());

            // the real etcdctl's own save of the same member, at its own pace
            Path saved = home.resolve("saved.db");
            Tool.etcdctl(member.endpoint(), "snapshot", "save", saved.toString()).ok();
            assertEquals(revision, JSON.readTree(Tool.etcdctl("127.0.0.1:1", "snapshot", "status", saved.toString(), "-w", "json")
                    .ok().out()).get("revision").asLong());
            assertNoSnapshotLeftIn(member.dataDir());
        } finally {
            channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
        }
        member.stop();
    }

    /**
     * Takes a snapshot with gRPC's manual flow control: one chunk, then nothing asked for a
     * while (a member without flow control queues the rest of the file meanwhile), then the
     * rest one chunk at a time. Writes the blobs to {@code file}; returns the chunks received.
     */
    private static long stalledSnapshot(ManagedChannel channel, Path file) throws Exception {
        BlockingQueue<Object> events = new LinkedBlockingQueue<>();
        ClientCall<SnapshotRequest, SnapshotResponse> call = channel.newCall(MaintenanceGrpc.getSnapshotMethod(), CallOptions.DEFAULT);
        call.start(new ClientCall.Listener<>() {
            @Override
            public void onMessage(SnapshotResponse message) {
                events.add(message);
            }

            @Override
            public void onClose(Status status, Metadata trailers) {
                events.add(status);
            }
        }, new Metadata());
        call.sendMessage(SnapshotRequest.getDefaultInstance());
        call.halfClose();
        call.request(1);
        long chunks = 0;
        try (OutputStream out = Files.newOutputStream(file)) {
            Object first = events.poll(5, TimeUnit.MINUTES);
            assertInstanceOf(SnapshotResponse.class, first, String.valueOf(first));
            ((SnapshotResponse) first).getBlob().writeTo(out);
            chunks++;
            Thread.sleep(5_000);
            while (true) {
                call.request(1);
                Object e = events.poll(2, TimeUnit.MINUTES);
                if (e instanceof Status s) {
                    assertTrue(s.isOk(), s.toString());
                    return chunks;
                }
                assertInstanceOf(SnapshotResponse.class, e, "a chunk within two minutes");
                ((SnapshotResponse) e).getBlob().writeTo(out);
                chunks++;
            }
        }
    }

    @Test
    void aSnapshotTakenWhileWritersRunHoldsOneRevision() throws Exception {
        Path home = RES.dir("snapshot-consistent-it-");
        EtcdProcess source = RES.track(EtcdProcess.of(ServerCommand.ours(), "busy", home));
        source.start();
        ManagedChannel channel = channel(source);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong written = new AtomicLong();
        ExecutorService writers = Executors.newFixedThreadPool(2);
        Path file = home.resolve("busy.db");
        try {
            List<Future<?>> running = List.of(0, 1).stream().map(w -> writers.submit(() -> {
                KVGrpc.KVBlockingStub kv = KVGrpc.newBlockingStub(channel);
                for (long i = 0; !stop.get(); i++) {
                    // two keys in one transaction: one revision, so a torn view would show them apart
                    String v = w + "-" + i;
                    kv.txn(TxnRequest.newBuilder()
                            .addSuccess(put("w" + w + "/a", v)).addSuccess(put("w" + w + "/b", v))
                            .addSuccess(put("w" + w + "/n/" + i, v)).build());
                    written.incrementAndGet();
                }
                return null;
            })).<Future<?>>map(f -> f).toList();
            awaitWrites(written, 50);
            Tool.etcdctl(source.endpoint(), "snapshot", "save", file.toString()).ok();
            awaitWrites(written, written.get() + 50);
            stop.set(true);
            for (Future<?> f : running) {
                f.get(1, TimeUnit.MINUTES);
            }
        } finally {
            stop.set(true);
            writers.shutdownNow();
            channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
        }
        long at = JSON.readTree(Tool.etcdctl("127.0.0.1:1", "snapshot", "status", file.toString(), "-w", "json").ok().out())
                .get("revision").asLong();
        long latest = ServedData.revision(source.endpoint());
        assertTrue(at > 1 && at < latest, "the snapshot is at " + at + ", writes went on to " + latest);

        EtcdProcess restored = RES.track(EtcdProcess.of(ServerCommand.realEtcd(), "restored", home));
        Tool.etcdctl("127.0.0.1:1", "snapshot", "restore", file.toString(), "--data-dir", restored.dataDir().toString(),
                "--name", restored.name(), "--initial-cluster", restored.name() + "=" + restored.peerUrl(),
                "--initial-advertise-peer-urls", restored.peerUrl()).ok();
        restored.start();
        // the restored etcd holds exactly what the source served at that revision
        JsonNode then = JSON.readTree(Tool.etcdctl(source.endpoint(), "get", "", "--prefix", "--rev=" + at, "-w", "json").ok().out());
        JsonNode now = JSON.readTree(Tool.etcdctl(restored.endpoint(), "get", "", "--prefix", "-w", "json").ok().out());
        assertEquals(at, now.get("header").get("revision").asLong());
        assertEquals(then.get("kvs"), now.get("kvs"));
        assertEquals(then.get("count"), now.get("count"));
        restored.stop();
        source.stop();
    }

    private static RequestOp put(String key, String value) {
        return RequestOp.newBuilder().setRequestPut(PutRequest.newBuilder()
                .setKey(ByteString.copyFromUtf8(key)).setValue(ByteString.copyFromUtf8(value))).build();
    }

    private static void awaitWrites(AtomicLong written, long atLeast) throws InterruptedException {
        Eventually.until(atLeast + " writes", Duration.ofMinutes(2), () -> written.get() >= atLeast);
    }

    private static ManagedChannel channel(EtcdProcess member) {
        return ManagedChannelBuilder.forTarget(member.endpoint()).usePlaintext()
                .maxInboundMessageSize(16 << 20).build();
    }
}
