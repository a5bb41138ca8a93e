package io.etcd.jetcd.test;

import io.etcd.jetcd.launcher.EtcdCluster;
import io.etcdj.embedded.EtcdMember;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * jetcd-test's JUnit 5 extension, with the same builder and accessors, on etcdj members started
 * in the test JVM (no Docker). On a static field the cluster serves the whole class; on an
 * instance field each test gets its own. While it runs, {@code Client.builder().target("cluster://"
 * + clusterName())} reaches it through {@link EtcdClusterNameResolver}.
 */
public final class EtcdClusterExtension implements BeforeAllCallback, BeforeEachCallback, AfterAllCallback,
        AfterEachCallback {
    private static final Map<String, EtcdCluster> RUNNING = new ConcurrentHashMap<>();

    private final EmbeddedCluster cluster;
    private boolean perClass;

    private EtcdClusterExtension(EmbeddedCluster cluster) {
        this.cluster = cluster;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The running cluster of that name, or null. */
    public static EtcdCluster cluster(String clusterName) {
        return RUNNING.get(clusterName);
    }

    /** The running cluster's members, for the name resolver (null when none runs under that name). */
    static List<EtcdMember> members(String clusterName) {
        EtcdCluster c = RUNNING.get(clusterName);
        return c instanceof EmbeddedCluster e ? e.members() : null;
    }

    public EtcdCluster cluster() {
        return cluster;
    }

    public void restart(long delay, TimeUnit unit) {
        try {
            cluster.restart(delay, unit);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while restarting " + cluster.clusterName(), e);
        }
    }

    public String clusterName() {
        return cluster.clusterName();
    }

    public List<URI> clientEndpoints() {
        return cluster.clientEndpoints();
    }

    public List<URI> peerEndpoints() {
        return cluster.peerEndpoints();
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        perClass = true;
        start();
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        start();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        if (!perClass) {
            stop();
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        perClass = false;
        stop();
    }

    private synchronized void start() {
        if (RUNNING.putIfAbsent(cluster.clusterName(), cluster) == null) {
            try {
                cluster.start();
            } catch (RuntimeException e) {
                RUNNING.remove(cluster.clusterName());
                throw e;
            }
        }
    }

    private synchronized void stop() {
        try {
            cluster.close();
        } finally {
            RUNNING.remove(cluster.clusterName());
        }
    }

    /** jetcd-test's builder. Settings that only meant something for containers are accepted and have no effect. */
    public static final class Builder {
        private String clusterName = UUID.randomUUID().toString();
        private String prefix = "etcd";
        private int nodes = 1;
        private boolean ssl;
        private final List<String> additionalArgs = new ArrayList<>();

        private Builder() {
        }

        /** The name for {@code cluster://NAME} and the members' cluster token. */
        public Builder withClusterName(String value) {
            this.clusterName = value;
            return this;
        }

        /** Members are named PREFIX0, PREFIX1, ... ("etcd" by default, as jetcd's nodes). */
        public Builder withPrefix(String value) {
            this.prefix = value;
            return this;
        }

        public Builder withNodes(int value) {
            this.nodes = value;
            return this;
        }

        /** TLS on client and peer URLs; the certificates name each member (etcd0 ...), localhost and 127.0.0.1. */
        public Builder withSsl(boolean value) {
            this.ssl = value;
            return this;
        }

        /** Accepted for compatibility: the members' log lines always go to the test JVM's standard error. */
        public Builder withDebug(boolean value) {
            return this;
        }

        /** More etcd flags for every member. */
        public Builder withAdditionalArgs(Collection<String> args) {
            this.additionalArgs.addAll(args);
            return this;
        }

        public Builder withAdditionalArgs(String... args) {
            return withAdditionalArgs(List.of(args));
        }

        /** Accepted for compatibility: there is no container image, the members are etcdj's. */
        public Builder withImage(String image) {
            return this;
        }

        /** Accepted for compatibility: data dirs are always on the local disk, in a temporary directory. */
        public Builder withMountDirectory(boolean mountDirectory) {
            return this;
        }

        public EtcdClusterExtension build() {
            String name = clusterName;
            String memberPrefix = prefix;
            int size = nodes;
            boolean tls = ssl;
            List<String> args = List.copyOf(additionalArgs);
            return new EtcdClusterExtension(new EmbeddedCluster(() -> {
                // qualified: jetcd's EtcdCluster is the one imported here
                io.etcdj.embedded.EtcdCluster.Builder b = io.etcdj.embedded.EtcdCluster.builder()
                        .name(name).memberNamePrefix(memberPrefix).members(size).tls(tls).additionalArgs(args);
                if (tls) {
                    ProjectCertificates.apply(b, memberPrefix, size);
                }
                return b.build();
            }, name));
        }
    }
}
