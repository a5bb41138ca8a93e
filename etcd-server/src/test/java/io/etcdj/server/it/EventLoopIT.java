package io.etcdj.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.DefragmentRequest;
import io.etcdj.api.etcdserverpb.KVGrpc;
import io.etcdj.api.etcdserverpb.MaintenanceGrpc;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.api.etcdserverpb.RangeResponse;
import io.etcdj.api.etcdserverpb.StatusRequest;
import io.etcdj.api.etcdserverpb.StatusResponse;
import io.etcdj.api.etcdserverpb.WatchCreateRequest;
import io.etcdj.api.etcdserverpb.WatchProgressRequest;
import io.etcdj.api.etcdserverpb.WatchRequest;
import io.etcdj.api.etcdserverpb.WatchResponse;
import io.etcdj.harness.EtcdProcess;
import io.etcdj.harness.Eventually;
import io.etcdj.harness.FreePorts;
import io.etcdj.harness.Resources;
import io.grpc.stub.StreamObserver;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A read that must wait (for a defragment, for the apply loop's write batch) waits off the
 * connection's event loop: a watch on the same connection, hence on the same event loop of the
 * member, is answered while the read waits, and the read is answered once it can be. Before, the
 * read waited on the loop and the watch's answer came only after the defragment or the batch.
 * Failpoints make both long: {@code defragBeforeCopy} holds the backend inside a defragment,
 * {@code applyBeforeConfChange} holds the store inside an apply batch.
 */
class EventLoopIT {
    private static final Duration HELD = Duration.ofSeconds(8);

    @RegisterExtension
    final Resources res = new Resources();

    @Test
    void aWatchIsAnsweredWhileAReadOnItsConnectionWaitsForADefragment() throws Exception {
        EtcdProcess member = res.track(EtcdProcess.ours());
        member.jvmOptions(List.of("-Detcdj.failpoints=defragBeforeCopy=sleep(" + HELD.toMillis() + ")"));
        member.start();
        try (GrpcEndpoint grpc = new GrpcEndpoint(member)) {
            grpc.kv().put(PutRequest.newBuilder().setKey(ByteString.copyFromUtf8("k")).setValue(ByteString.copyFromUtf8("v")).build());
            Watch watch = new Watch(grpc);
            CompletableFuture<Void> defrag = CompletableFuture.runAsync(() ->
                    MaintenanceGrpc.newBlockingStub(grpc.channel()).withDeadlineAfter(60, TimeUnit.SECONDS)
                            .defragment(DefragmentRequest.getDefaultInstance()));
            Eventually.until("the defragment holding the backend", Duration.ofSeconds(10),
                    () -> metrics(member).contains("\netcd_disk_defrag_inflight 1"));
            assertReadWaitsOffTheLoop(grpc, watch, false, () -> !defrag.isDone());
            defrag.get(60, TimeUnit.SECONDS);
        }
    }

    @Test
    void aWatchIsAnsweredWhileAReadOnItsConnectionWaitsForAnApplyBatch() throws Exception {
        EtcdProcess member = res.track(EtcdProcess.ours());
        member.jvmOptions(List.of("-Detcdj.failpoints=applyBeforeConfChange=sleep(" + HELD.toMillis() + ")"));
        member.start();
        try (GrpcEndpoint grpc = new GrpcEndpoint(member)) {
            grpc.kv().put(PutRequest.newBuilder().setKey(ByteString.copyFromUtf8("k")).setValue(ByteString.copyFromUtf8("v")).build());
            Watch watch = new Watch(grpc);
            StatusResponse before = grpc.maintenance().status(StatusRequest.getDefaultInstance());
            // a learner's conf change: its apply holds the store's write batch for HELD
            res.track(new Etcdctl(member.endpoint()).background("member", "add", "learner1", "--learner",
                    "--peer-urls=http://127.0.0.1:" + FreePorts.pick()));
            BooleanSupplier applyHeld = () -> {
                StatusResponse s = grpc.maintenance().status(StatusRequest.getDefaultInstance());
                return s.getRaftIndex() > before.getRaftIndex() && s.getRaftAppliedIndex() < s.getRaftIndex();
            };
            Eventually.until("the conf change's apply holding the store", Duration.ofSeconds(10), applyHeld::getAsBoolean);
            // serializable: a linearizable read would wait for the held entries' apply and time out, as etcd's does
            assertReadWaitsOffTheLoop(grpc, watch, true, applyHeld);
        }
    }

    /**
     * Sends a read on the watch's connection, then a progress request on the watch: the watch is
     * answered while {@code stillHeld}, and the read completes afterwards with the stored value.
     */
    private static void assertReadWaitsOffTheLoop(GrpcEndpoint grpc, Watch watch, boolean serializable,
                                                  BooleanSupplier stillHeld)
            throws Exception {
        CompletableFuture<RangeResponse> read = new CompletableFuture<>();
        KVGrpc.newStub(grpc.channel()).withDeadlineAfter(60, TimeUnit.SECONDS)
                .range(RangeRequest.newBuilder().setKey(ByteString.copyFromUtf8("k")).setSerializable(serializable).build(),
                        into(read));
        watch.send(WatchRequest.newBuilder().setProgressRequest(WatchProgressRequest.getDefaultInstance()).build());
        WatchResponse progress = watch.next(Duration.ofSeconds(5));
        assertTrue(progress != null, "the watch was not answered while the read waited");
        assertFalse(progress.getCreated());
        assertTrue(stillHeld.getAsBoolean(), "the watch was answered only once the store was free again");
        RangeResponse r = read.get(60, TimeUnit.SECONDS);
        assertEquals(1, r.getKvsCount());
        assertEquals("v", r.getKvs(0).getValue().toStringUtf8());
    }

    private static String metrics(EtcdProcess member) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://" + member.endpoint() + "/metrics"))
                .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString()).body();
    }

    private static <T> StreamObserver<T> into(CompletableFuture<T> f) {
        return new StreamObserver<>() {
            @Override
            public void onNext(T value) {
                f.complete(value);
            }

            @Override
            public void onError(Throwable t) {
                f.completeExceptionally(t);
            }

            @Override
            public void onCompleted() {
            }
        };
    }

    /** One watch stream on the endpoint's connection, created on key "w". */
    private static final class Watch {
        private final BlockingQueue<WatchResponse> responses = new LinkedBlockingQueue<>();
        private final StreamObserver<WatchRequest> requests;

        Watch(GrpcEndpoint grpc) throws InterruptedException {
            requests = grpc.watch().watch(new StreamObserver<>() {
                @Override
                public void onNext(WatchResponse r) {
                    responses.add(r);
                }

                @Override
                public void onError(Throwable t) {
                }

                @Override
                public void onCompleted() {
                }
            });
            send(WatchRequest.newBuilder().setCreateRequest(WatchCreateRequest.newBuilder()
                    .setKey(ByteString.copyFromUtf8("w"))).build());
            WatchResponse created = next(Duration.ofSeconds(15));
            assertTrue(created != null && created.getCreated(), "the watch was created");
        }

        synchronized void send(WatchRequest r) {
            requests.onNext(r);
        }

        WatchResponse next(Duration within) throws InterruptedException {
            return responses.poll(within.toMillis(), TimeUnit.MILLISECONDS);
        }
    }
}
