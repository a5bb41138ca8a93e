package io.etcd.jetcd.launcher;

import java.net.URI;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A running etcd cluster as jetcd's tests see it: started, stopped, restarted, and its endpoints.
 * jetcd's own type also lists Docker containers; that accessor has no counterpart here.
 */
public interface EtcdCluster extends AutoCloseable {
    void start();

    void stop();

    /** Stops and deletes the cluster's data. */
    @Override
    void close();

    /** Stops every member, waits {@code delay}, and starts them again on their data. */
    default void restart(long delay, TimeUnit unit) throws InterruptedException {
        stop();
        if (delay > 0) {
            unit.sleep(delay);
        }
        start();
    }

    String clusterName();

    List<URI> clientEndpoints();

    List<URI> peerEndpoints();
}
