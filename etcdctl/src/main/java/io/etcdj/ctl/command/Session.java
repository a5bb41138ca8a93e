package io.etcdj.ctl.command;

import io.etcdj.api.etcdserverpb.LeaseGrantRequest;
import io.etcdj.api.etcdserverpb.LeaseRevokeRequest;
import io.etcdj.client.EtcdClient;
import io.etcdj.client.EtcdClientException;

/**
 * A lease kept alive in the background for as long as a lock or election is held, like the Go
 * client's concurrency.Session.
 */
final class Session implements AutoCloseable {

    private final EtcdClient client;
    private final long leaseId;
    private final Thread keeper;

    Session(EtcdClient client, long ttlSeconds) {
        this.client = client;
        this.leaseId = client.lease(s -> s.leaseGrant(LeaseGrantRequest.newBuilder().setTTL(ttlSeconds).build())).getID();
        this.keeper = new Thread(this::keepAlive, "session-keepalive");
        keeper.setDaemon(true);
        keeper.start();
    }

    long leaseId() {
        return leaseId;
    }

    private void keepAlive() {
        try (LeaseKeepAlive ka = new LeaseKeepAlive(client, leaseId)) {
            ka.renewForever(resp -> { });
        } catch (RuntimeException ended) {
            // The session ends with the lease; the holder notices on its next request.
        }
    }

    @Override
    public void close() {
        keeper.interrupt();
        try {
            client.lease(s -> s.leaseRevoke(LeaseRevokeRequest.newBuilder().setID(leaseId).build()));
        } catch (EtcdClientException ignored) {
            // Already expired: nothing to release.
        }
    }
}
