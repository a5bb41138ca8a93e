package io.etcdj.embedded;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A JUnit 5 extension that runs an {@link EtcdCluster}: registered on a static field it serves
 * every test of the class (started before the first, closed after the last); on an instance field,
 * each test gets a new cluster.
 *
 * <pre>{@code
 * @RegisterExtension
 * static final EtcdExtension etcd = EtcdExtension.builder().members(3).build();
 *
 * @Test
 * void putAndGet() {
 *     Client client = Client.builder().endpoints(etcd.clientEndpoints().toArray(URI[]::new)).build();
 *     ...
 * }
 * }</pre>
 */
public final class EtcdExtension implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {
    /** Makes a new cluster (new ports, a new directory) for each start. */
    private final Supplier<EtcdCluster> clusters;
    private EtcdCluster cluster;
    private boolean perClass;

    private EtcdExtension(Supplier<EtcdCluster> clusters) {
        this.clusters = clusters;
    }

    /** A builder for the cluster; the extension builds a new cluster from it for each start. */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        perClass = true;
        startIfNeeded();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        perClass = false;
        closeCluster();
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        startIfNeeded();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        if (!perClass) {
            closeCluster();
        }
    }

    private synchronized void startIfNeeded() {
        if (cluster == null) {
            EtcdCluster c = clusters.get();
            try {
                c.start();
            } catch (RuntimeException e) {
                c.close();
                throw e;
            }
            cluster = c;
        }
    }

    private synchronized void closeCluster() {
        if (cluster != null) {
            try {
                cluster.close();
            } finally {
                cluster = null;
            }
        }
    }

    /** The running cluster; only between the extension's start and close. */
    public synchronized EtcdCluster cluster() {
        if (cluster == null) {
            throw new IllegalStateException("the etcd cluster is not running: use it from a test or a @BeforeEach/@BeforeAll method");
        }
        return cluster;
    }

    public List<URI> clientEndpoints() {
        return cluster().clientEndpoints();
    }

    public List<URI> peerEndpoints() {
        return cluster().peerEndpoints();
    }

    /** Builds an {@link EtcdExtension}: the same settings as {@link EtcdCluster.Builder}. */
    public static final class Builder {
        private UnaryOperator<EtcdCluster.Builder> settings = UnaryOperator.identity();

        private Builder() {
        }

        private Builder with(UnaryOperator<EtcdCluster.Builder> step) {
            UnaryOperator<EtcdCluster.Builder> before = settings;
            settings = b -> step.apply(before.apply(b));
            return this;
        }

        public Builder members(int count) {
            return with(b -> b.members(count));
        }

        public Builder name(String value) {
            return with(b -> b.name(value));
        }

        public Builder memberNamePrefix(String value) {
            return with(b -> b.memberNamePrefix(value));
        }

        public Builder tls(boolean value) {
            return with(b -> b.tls(value));
        }

        public Builder mode(Mode value) {
            return with(b -> b.mode(value));
        }

        public Builder additionalArgs(String... args) {
            return with(b -> b.additionalArgs(args));
        }

        public Builder startTimeout(Duration value) {
            return with(b -> b.startTimeout(value));
        }

        public EtcdExtension build() {
            UnaryOperator<EtcdCluster.Builder> fixed = settings;
            return new EtcdExtension(() -> fixed.apply(EtcdCluster.builder()).build());
        }
    }
}
