package io.etcdj.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.KVGrpc;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.api.etcdserverpb.PutResponse;
import io.etcdj.api.etcdserverpb.StatusRequest;
import io.etcdj.api.etcdserverpb.StatusResponse;
import io.etcdj.harness.EtcdProcess;
import io.etcdj.harness.Eventually;
import io.etcdj.harness.FreePorts;
import io.etcdj.harness.Resources;
import io.etcdj.harness.ServerCommand;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * One member under more writers than it can serve at once: it stays up, answers /health
 * throughout, loses no acknowledged write, and refuses only with etcd's errors. The shape is
 * modest here (CI); scripts/overload.sh runs it long, with 1 000 clients, against our bin/etcd
 * and etcd side by side (system properties {@code overload.*}, below).
 */
class OverloadIT {
    /** What etcd answers a client it cannot serve now (etcd's error catalogue, rpctypes). */
    private static final Set<String> ETCD_REFUSALS = Set.of(
            "RESOURCE_EXHAUSTED: etcdserver: too many requests",
            "UNAVAILABLE: etcdserver: request timed out",
            "UNAVAILABLE: etcdserver: request timed out, possibly due to previous leader failure",
            "UNAVAILABLE: etcdserver: leader changed",
            "RESOURCE_EXHAUSTED: etcdserver: mvcc: database space exceeded");
    /** etcd's largest backend quota: a long run fills the 2 GiB default within a minute. */
    private static final String QUOTA = "--quota-backend-bytes=" + (8L << 30);

    @RegisterExtension
    final Resources res = new Resources();

    @Test
    void manyClientsWritingLargeValuesLoseNothingAndGetOnlyEtcdsRefusals() throws Exception {
        int clients = Integer.getInteger("overload.clients", 250);
        OverloadLoad.Shape shape = new OverloadLoad.Shape(clients, Math.max(1, clients / 10),
                Integer.getInteger("overload.valueBytes", 64 << 10),
                Duration.ofSeconds(Integer.getInteger("overload.seconds", 8)));
        List<OverloadLoad.Outcome> outcomes = new ArrayList<>();
        for (String server : System.getProperty("overload.servers", "ours").split(",")) {
            EtcdProcess member = res.track(member(server.trim()));
            member.start();
            OverloadLoad.Outcome o = OverloadLoad.run(server.trim(), member, shape);
            record(o);
            outcomes.add(o);
            member.close();
        }
        for (OverloadLoad.Outcome o : outcomes) {
            assertTrue(o.aliveAfter(), o.server() + " exited under the load");
            assertTrue(o.acked() > 0, o.server() + " acknowledged nothing: " + o.line());
            assertEquals(0, o.lost(), o.server() + " lost acknowledged writes: " + o.lostExamples());
            assertEquals(o.healthProbes(), o.healthAnswered(), o.server() + " left /health unanswered: " + o.line());
            assertTrue(o.healthOk() > 0, o.server() + " never reported healthy: " + o.line());
            for (String error : o.errors().keySet()) {
                assertTrue(ETCD_REFUSALS.contains(error), o.server() + " answered with something etcd does not: " + error);
            }
        }
    }

    /**
     * While the apply loop is held (a failpoint sleeps in a conf change's apply) committed puts
     * pile up behind it; once more than 5 000 wait, a new put is refused with etcd's error and
     * code, and after the apply loop resumes the member serves again.
     */
    @Test
    void refusesNewProposalsWhileMoreThan5000CommittedEntriesWaitForApply() throws Exception {
        EtcdProcess member = res.track(EtcdProcess.ours());
        member.jvmOptions(List.of("-Detcdj.failpoints=applyBeforeConfChange=sleep(12000)"));
        member.start();
        try (GrpcEndpoint grpc = new GrpcEndpoint(member)) {
            // a learner's conf change: its apply sleeps, holding every entry committed after it
            StatusResponse before = grpc.maintenance().status(StatusRequest.getDefaultInstance());
            res.track(new Etcdctl(member.endpoint()).background("member", "add", "learner1", "--learner",
                    "--peer-urls=http://127.0.0.1:" + FreePorts.pick()));
            Eventually.until("the conf change committed and its apply held", Duration.ofSeconds(10), () -> {
                StatusResponse s = grpc.maintenance().status(StatusRequest.getDefaultInstance());
                return s.getRaftIndex() > before.getRaftIndex() && s.getRaftAppliedIndex() < s.getRaftIndex();
            });
            int queued = 6000;
            CountDownLatch answered = new CountDownLatch(queued);
            KVGrpc.KVStub async = KVGrpc.newStub(grpc.channel());
            for (int i = 0; i < queued; i++) {
                async.put(PutRequest.newBuilder().setKey(ByteString.copyFromUtf8("queued/" + i))
                        .setValue(ByteString.copyFromUtf8("v")).build(), countDown(answered));
            }
            Eventually.until("more than 5000 committed entries waiting for apply", Duration.ofSeconds(10), () -> {
                StatusResponse s = grpc.maintenance().status(StatusRequest.getDefaultInstance());
                return s.getRaftIndex() - s.getRaftAppliedIndex() > 5000;
            });
            StatusRuntimeException refused = Assertions.assertThrows(StatusRuntimeException.class,
                    () -> grpc.kv().put(PutRequest.newBuilder().setKey(ByteString.copyFromUtf8("refused"))
                            .setValue(ByteString.copyFromUtf8("v")).build()));
            assertEquals(Status.Code.RESOURCE_EXHAUSTED, refused.getStatus().getCode());
            assertEquals("etcdserver: too many requests", refused.getStatus().getDescription());
            assertTrue(answered.await(60, TimeUnit.SECONDS), "the queued puts were all answered");
            PutResponse after = Eventually.get("a put once the apply loop caught up", Duration.ofSeconds(30),
                    () -> grpc.kv().put(PutRequest.newBuilder().setKey(ByteString.copyFromUtf8("after"))
                            .setValue(ByteString.copyFromUtf8("v")).build()));
            assertTrue(after.getHeader().getRevision() > 1);
            assertTrue(member.isAlive());
        }
    }

    private static <T> StreamObserver<T> countDown(CountDownLatch latch) {
        return new StreamObserver<>() {
            @Override
            public void onNext(T value) {
            }

            @Override
            public void onError(Throwable t) {
                latch.countDown();
            }

            @Override
            public void onCompleted() {
                latch.countDown();
            }
        };
    }

    /**
     * "ours": the packaged server with a 2 GB heap (the Raft log alone may reach 1 GB at 64 KiB values); "bin": bin/etcd as a user runs it;
     * "etcd": etcd 3.4. With {@code overload.dataRoot} (a slow disk's mount) the data dir is made there.
     */
    private EtcdProcess member(String server) {
        String root = System.getProperty("overload.dataRoot");
        String[] flags = root == null ? new String[] {QUOTA}
                : new String[] {QUOTA, "--data-dir=" + Path.of(root).resolve(server + "-" + System.nanoTime() + ".etcd")};
        return switch (server) {
            case "etcd" -> EtcdProcess.realEtcd(flags);
            case "bin" -> EtcdProcess.of(ServerCommand.script(ServerCommand.projectRoot().resolve("bin/etcd")), "bin",
                    res.dir("overload-bin"), flags);
            default -> {
                EtcdProcess p = EtcdProcess.ours(flags);
                p.jvmOptions(List.of("-Xmx2g"));
                yield p;
            }
        };
    }

    /** Each outcome goes to the test's output and to target/overload-results.txt (the script prints that file). */
    private static void record(OverloadLoad.Outcome o) throws IOException {
        System.out.println(o.line());
        Files.writeString(Path.of("target", "overload-results.txt"), o.line() + System.lineSeparator(),
                StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }
}
