package io.etcd.jetcd.test;

import io.etcdj.embedded.EtcdCluster;
import io.etcdj.embedded.EtcdMember;
import java.net.URI;
import java.util.List;
import java.util.function.Supplier;

/**
 * jetcd's cluster type over an etcdj embedded cluster. Its endpoints are fixed from the first
 * start on; {@link #close} deletes the data, and a start after it begins a new cluster.
 */
final class EmbeddedCluster implements io.etcd.jetcd.launcher.EtcdCluster { // qualified: etcdj's EtcdCluster is imported
    private final Supplier<EtcdCluster> factory;
    private final String name;
    private EtcdCluster current;

    EmbeddedCluster(Supplier<EtcdCluster> factory, String name) {
        this.factory = factory;
        this.name = name;
    }

    private synchronized EtcdCluster current() {
        if (current == null) {
            current = factory.get();
        }
        return current;
    }

    @Override
    public void start() {
        current().start();
    }

    @Override
    public void stop() {
        current().stop();
    }

    @Override
    public synchronized void close() {
        if (current != null) {
            try {
                current.close();
            } finally {
                current = null;
            }
        }
    }

    @Override
    public String clusterName() {
        return name;
    }

    @Override
    public List<URI> clientEndpoints() {
        return current().clientEndpoints();
    }

    @Override
    public List<URI> peerEndpoints() {
        return current().peerEndpoints();
    }

    List<EtcdMember> members() {
        return current().members();
    }
}
