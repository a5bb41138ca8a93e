package io.etcdj.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.api.etcdserverpb.DowngradeRequest;
import io.etcdj.api.etcdserverpb.DowngradeRequest.DowngradeAction;
import io.etcdj.api.etcdserverpb.MaintenanceGrpc;
import io.etcdj.api.etcdserverpb.StatusRequest;
import io.etcdj.api.etcdserverpb.StatusResponse;
import io.etcdj.harness.EtcdProcess;
import io.etcdj.harness.Eventually;
import io.etcdj.harness.ProcessCluster;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.StatusRuntimeException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * etcd 3.6's Maintenance.Downgrade on a 3-member cluster of ours: validate, enable and cancel with
 * etcd's errors; an enabled job shows in every member's Status and lowers the cluster version
 * that /version reports; only root may run it once auth is on.
 */
class DowngradeIT {
    private static final long TIMEOUT_S = 20;

    private static String call(EtcdProcess m, DowngradeAction action, String version) {
        ManagedChannel ch = ManagedChannelBuilder.forTarget(m.endpoint()).usePlaintext().build();
        try {
            return MaintenanceGrpc.newBlockingStub(ch).withDeadlineAfter(TIMEOUT_S, TimeUnit.SECONDS)
                    .downgrade(DowngradeRequest.newBuilder().setAction(action).setVersion(version).build()).getVersion();
        } finally {
            ch.shutdownNow();
        }
    }

    private static String refusal(EtcdProcess m, DowngradeAction action, String version) {
        StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> call(m, action, version));
        return e.getStatus().getCode() + ": " + e.getStatus().getDescription();
    }

    private static StatusResponse status(EtcdProcess m) {
        ManagedChannel ch = ManagedChannelBuilder.forTarget(m.endpoint()).usePlaintext().build();
        try {
            return MaintenanceGrpc.newBlockingStub(ch).withDeadlineAfter(TIMEOUT_S, TimeUnit.SECONDS)
                    .status(StatusRequest.getDefaultInstance());
        } finally {
            ch.shutdownNow();
        }
    }

    private static String version(EtcdProcess m) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://" + m.endpoint() + "/version")).build(), HttpResponse.BodyHandlers.ofString());
        return r.body();
    }

    @Test
    void validateEnableAndCancelAsEtcd36() throws Exception {
        try (ProcessCluster c = ProcessCluster.start(EtcdProcess.Binary.OURS, 3)) {
            EtcdProcess m1 = c.member(0);
            assertEquals("3.6", call(m1, DowngradeAction.VALIDATE, "3.5"));
            assertEquals("3.6", call(m1, DowngradeAction.VALIDATE, "3.5.0"));
            assertEquals("INVALID_ARGUMENT: etcdserver: wrong downgrade target version format",
                    refusal(m1, DowngradeAction.VALIDATE, "three"));
            assertEquals("INVALID_ARGUMENT: etcdserver: invalid downgrade target version",
                    refusal(m1, DowngradeAction.VALIDATE, "3.4"));
            assertEquals("FAILED_PRECONDITION: etcdserver: no inflight downgrade job",
                    refusal(m1, DowngradeAction.CANCEL, ""));

            assertEquals("3.6", call(m1, DowngradeAction.ENABLE, "3.5"));
            for (EtcdProcess m : c.members()) {
                Eventually.poll(Duration.ofSeconds(TIMEOUT_S), Duration.ofMillis(50), () -> status(m),
                        s -> s.getDowngradeInfo().getEnabled());
                assertTrue(status(m).getDowngradeInfo().getEnabled(), m.describe());
                assertEquals("3.5.0", status(m).getDowngradeInfo().getTargetVersion());
                assertTrue(version(m).contains("\"etcdcluster\":\"3.5.0\""), version(m));
            }
            assertEquals("FAILED_PRECONDITION: etcdserver: cluster has a downgrade job in progress",
                    refusal(c.member(2), DowngradeAction.ENABLE, "3.5"));

            assertEquals("3.6", call(c.member(1), DowngradeAction.CANCEL, ""));
            assertTrue(!status(m1).getDowngradeInfo().getEnabled() || waitCancelled(m1));
            assertTrue(version(c.member(1)).contains("\"etcdcluster\":\"3.6.0\""), version(c.member(1)));

            Etcdctl ctl = new Etcdctl(m1.endpoint());
            ctl.run("user", "add", "root:rootpw").ok();
            ctl.run("user", "grant-role", "root", "root").ok();
            ctl.run("auth", "enable").ok();
            assertEquals("UNKNOWN: auth: user name is empty", refusal(m1, DowngradeAction.VALIDATE, "3.5"));
        }
    }

    private static boolean waitCancelled(EtcdProcess m) throws Exception {
        return !Eventually.poll(Duration.ofSeconds(TIMEOUT_S), Duration.ofMillis(50), () -> status(m),
                s -> !s.getDowngradeInfo().getEnabled()).getDowngradeInfo().getEnabled();
    }
}
