package io.etcdj.server.embed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.lease.LeaseTimeToLiveResponse;
import io.etcd.jetcd.options.LeaseOption;
import io.etcdj.server.it.InProcessEtcd;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The class-data training's hand-written gRPC calls reach a member as a client's do: jetcd (a client
 * nobody here wrote) sees their effects afterwards, and a call the member refuses fails the
 * training instead of passing unnoticed with the request path half loaded.
 */
class CdsGrpcCallsIT {
    private static final long TIMEOUT_S = 15;

    private static int port(InProcessEtcd etcd) {
        String endpoint = etcd.endpoint();
        return Integer.parseInt(endpoint.substring(endpoint.lastIndexOf(':') + 1));
    }

    @Test
    void everyCallIsAnsweredAndLeavesWhatAClientWouldSee() throws Exception {
        try (InProcessEtcd etcd = InProcessEtcd.withFlags(Map.of())) {
            etcd.start();
            try (CdsGrpcCalls calls = CdsGrpcCalls.connect(port(etcd), 10_000)) {
                calls.trainKvAndLease();
            }
            try (Client client = Client.builder().target("dns:///" + etcd.endpoint()).build()) {
                GetResponse got = client.getKVClient().get(ByteSequence.from("cds-training", StandardCharsets.UTF_8))
                        .get(TIMEOUT_S, TimeUnit.SECONDS);
                assertEquals(0, got.getCount(), "the training's key was deleted by its last KV call");
                // the put, the transaction's put (its comparison held) and the delete: three revisions
                assertEquals(4, got.getHeader().getRevision());
                LeaseTimeToLiveResponse ttl = client.getLeaseClient()
                        .timeToLive(CdsGrpcCalls.LEASE_ID, LeaseOption.DEFAULT).get(TIMEOUT_S, TimeUnit.SECONDS);
                assertEquals(60, ttl.getGrantedTTL(), "the lease the training granted");
            }
        }
    }

    @Test
    void aCallTheMemberRefusesFailsTheTraining() throws Exception {
        try (InProcessEtcd etcd = InProcessEtcd.withFlags(Map.of())) {
            etcd.start();
            // with auth on, a call without a token is refused: an error status and no message
            try (Client client = Client.builder().target("dns:///" + etcd.endpoint()).build()) {
                ByteSequence root = ByteSequence.from("root", StandardCharsets.UTF_8);
                client.getAuthClient().userAdd(root, ByteSequence.from("pw", StandardCharsets.UTF_8))
                        .get(TIMEOUT_S, TimeUnit.SECONDS);
                client.getAuthClient().userGrantRole(root, root).get(TIMEOUT_S, TimeUnit.SECONDS);
                client.getAuthClient().authEnable().get(TIMEOUT_S, TimeUnit.SECONDS);
            }
            try (CdsGrpcCalls calls = CdsGrpcCalls.connect(port(etcd), 10_000)) {
                IOException e = assertThrows(IOException.class, calls::trainKvAndLease);
                assertEquals("/etcdserverpb.KV/Put: the member answered with an error", e.getMessage());
            }
        }
    }
}
