package io.etcdj.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.Lock;
import io.etcd.jetcd.lock.LockResponse;
import io.etcd.jetcd.options.GetOption;
import io.etcdj.api.v3lockpb.LockGrpc;
import io.etcdj.api.v3lockpb.LockRequest;
import io.etcdj.harness.EtcdClusterExtension;
import io.etcdj.harness.Eventually;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The v3lock service against jetcd's Lock client and the real etcdctl's {@code lock}. */
class LockIT {
    private static final long TIMEOUT_S = 15;

    @RegisterExtension
    static final EtcdClusterExtension CLUSTER = EtcdClusterExtension.of(InProcessEtcd.withFlags(Map.of()));

    private static ByteSequence bs(String s) {
        return ByteSequence.from(s, StandardCharsets.UTF_8);
    }

    @Test
    void aSecondLockerGetsTheLockOnlyAfterTheFirstUnlocks() throws Exception {
        try (Client client = Client.builder().target("dns:///" + CLUSTER.member(0).endpoint()).build()) {
            long leaseA = client.getLeaseClient().grant(60).get(TIMEOUT_S, TimeUnit.SECONDS).getID();
            long leaseB = client.getLeaseClient().grant(60).get(TIMEOUT_S, TimeUnit.SECONDS).getID();
            Lock lock = client.getLockClient();
            LockResponse a = lock.lock(bs("jlock"), leaseA).get(TIMEOUT_S, TimeUnit.SECONDS);
            assertEquals("jlock/" + Long.toHexString(leaseA), a.getKey().toString(StandardCharsets.UTF_8));
            CompletableFuture<LockResponse> b = lock.lock(bs("jlock"), leaseB);
            lock.unlock(a.getKey()).get(TIMEOUT_S, TimeUnit.SECONDS);
            LockResponse got = b.get(TIMEOUT_S, TimeUnit.SECONDS);
            assertEquals("jlock/" + Long.toHexString(leaseB), got.getKey().toString(StandardCharsets.UTF_8));
            // at the revision B was granted the lock, A's key no longer exists
            long at = got.getHeader().getRevision();
            assertEquals(0, client.getKVClient().get(a.getKey(), GetOption.builder().withRevision(at).build())
                    .get(TIMEOUT_S, TimeUnit.SECONDS).getCount());
            assertEquals(1, client.getKVClient().get(got.getKey(), GetOption.builder().withRevision(at).build())
                    .get(TIMEOUT_S, TimeUnit.SECONDS).getCount());
            lock.unlock(got.getKey()).get(TIMEOUT_S, TimeUnit.SECONDS);
        }
    }

    @Test
    void realEtcdctlRunsACommandUnderTheLockAndReleasesIt() {
        Etcdctl ctl = new Etcdctl(CLUSTER.member(0).endpoint());
        Etcdctl.Result r = ctl.run("lock", "ctllock", "echo", "inside").ok();
        assertTrue(r.stdout().contains("inside"), r.toString());
        // the lock key went away with its session
        Etcdctl.Result left = ctl.run("get", "--prefix", "ctllock/").ok();
        assertEquals("", left.stdout(), left.toString());
    }

    @Test
    void aLockerThatGivesUpTakesItsKeyAway() throws Exception {
        try (Client client = Client.builder().target("dns:///" + CLUSTER.member(0).endpoint()).build()) {
            long leaseA = client.getLeaseClient().grant(60).get(TIMEOUT_S, TimeUnit.SECONDS).getID();
            long leaseB = client.getLeaseClient().grant(60).get(TIMEOUT_S, TimeUnit.SECONDS).getID();
            LockResponse a = client.getLockClient().lock(bs("gives-up"), leaseA).get(TIMEOUT_S, TimeUnit.SECONDS);
            ManagedChannel ch = ManagedChannelBuilder.forTarget(CLUSTER.member(0).endpoint())
                    .usePlaintext().build();
            try {
                StatusRuntimeException e = Assertions.assertThrows(
                        StatusRuntimeException.class, () -> LockGrpc.newBlockingStub(ch)
                                .withDeadlineAfter(500, TimeUnit.MILLISECONDS)
                                .lock(LockRequest.newBuilder()
                                        .setName(ByteString.copyFromUtf8("gives-up"))
                                        .setLease(leaseB).build()));
                assertEquals(Status.Code.DEADLINE_EXCEEDED, e.getStatus().getCode());
            } finally {
                ch.shutdownNow();
            }
            String waiterKey = "gives-up/" + Long.toHexString(leaseB);
            Eventually.poll(Duration.ofSeconds(TIMEOUT_S), Duration.ofMillis(50),
                    () -> client.getKVClient().get(bs(waiterKey)).get(TIMEOUT_S, TimeUnit.SECONDS).getCount(),
                    count -> count == 0);
            assertEquals(0, client.getKVClient().get(bs(waiterKey)).get(TIMEOUT_S, TimeUnit.SECONDS).getCount(),
                    "the waiter's key is gone although its lease lives on");
            assertEquals(1, client.getKVClient().get(a.getKey()).get(TIMEOUT_S, TimeUnit.SECONDS).getCount(),
                    "the holder keeps the lock");
            client.getLockClient().unlock(a.getKey()).get(TIMEOUT_S, TimeUnit.SECONDS);
        }
    }
}
