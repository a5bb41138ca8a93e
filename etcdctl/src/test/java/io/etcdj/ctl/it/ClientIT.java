package io.etcdj.ctl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.AuthEnableRequest;
import io.etcdj.api.etcdserverpb.AuthRoleAddRequest;
import io.etcdj.api.etcdserverpb.AuthUserAddRequest;
import io.etcdj.api.etcdserverpb.AuthUserGrantRoleRequest;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.client.ClientConfig;
import io.etcdj.client.Endpoint;
import io.etcdj.client.EtcdClient;
import io.etcdj.client.EtcdClientException;
import io.grpc.Status;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The shared client against a real etcd: fail-over, deadlines, auth tokens that expire with a restart. */
class ClientIT {

    private static ClientConfig.Builder config(String... endpoints) {
        List<Endpoint> eps = new ArrayList<>();
        for (String e : endpoints) {
            eps.add(Endpoint.parse(e));
        }
        return ClientConfig.builder().endpoints(eps).commandTimeout(Duration.ofSeconds(3));
    }

    private static RangeRequest get(String key) {
        return RangeRequest.newBuilder().setKey(ByteString.copyFromUtf8(key)).build();
    }

    @Test
    void failsOverFromADeadEndpointAndReportsDeadlines() throws Exception {
        try (RealEtcd etcd = RealEtcd.start("client")) {
            try (EtcdClient c = EtcdClient.connect(config("127.0.0.1:1", etcd.endpoint()).build())) {
                c.kv(s -> s.put(PutRequest.newBuilder().setKey(ByteString.copyFromUtf8("k"))
                        .setValue(ByteString.copyFromUtf8("v")).build()));
                assertEquals("v", c.kvRead(s -> s.range(get("k"))).getKvs(0).getValue().toStringUtf8());
            }
            List<Status> seen = new ArrayList<>();
            try (EtcdClient dead = EtcdClient.connect(config("127.0.0.1:1").commandTimeout(Duration.ofMillis(500))
                    .listener((ep, status, attempt) -> seen.add(status)).build())) {
                EtcdClientException e = assertThrows(EtcdClientException.class, () -> dead.kv(s -> s.range(get("k"))));
                assertEquals("context deadline exceeded", e.getMessage());
                assertTrue(e.isDeadlineExceeded());
                assertEquals(1, seen.size());
                assertEquals(Status.Code.DEADLINE_EXCEEDED, seen.get(0).getCode());
            }
        }
    }

    @Test
    void reauthenticatesWhenTheServerForgetsTheToken() throws Exception {
        try (RealEtcd etcd = RealEtcd.start("auth")) {
            try (EtcdClient admin = EtcdClient.connect(config(etcd.endpoint()).build())) {
                admin.auth(s -> s.userAdd(AuthUserAddRequest.newBuilder().setName("root").setPassword("pw").build()));
                admin.auth(s -> s.roleAdd(AuthRoleAddRequest.newBuilder().setName("root").build()));
                admin.auth(s -> s.userGrantRole(AuthUserGrantRoleRequest.newBuilder().setUser("root").setRole("root")
                        .build()));
                admin.auth(s -> s.authEnable(AuthEnableRequest.getDefaultInstance()));
            }
            EtcdClientException denied = assertThrows(EtcdClientException.class,
                    () -> EtcdClient.connect(config(etcd.endpoint()).credentials("root", "wrong").build()));
            assertEquals("etcdserver: authentication failed, invalid user ID or password", denied.getMessage());
            try (EtcdClient c = EtcdClient.connect(config(etcd.endpoint()).credentials("root", "pw").build())) {
                assertEquals(0, c.kvRead(s -> s.range(get("k"))).getCount());
                etcd.restart();
                // Simple tokens live in the server's memory: after the restart the old one is invalid and
                // the client must fetch a new one on its own.
                assertEquals(0, c.kvRead(s -> s.range(get("k"))).getCount());
            }
        }
    }
}
