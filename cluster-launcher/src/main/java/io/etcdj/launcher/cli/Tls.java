package io.etcdj.launcher.cli;

import io.etcdj.launcher.process.ClusterLayout;
import io.etcdj.launcher.spec.ClusterSpec;
import io.etcdj.launcher.supervisor.TlsProvider;
import io.etcdj.launcher.tls.GeneratedTls;
import java.util.Optional;

/** Chooses the certificate source for a cluster: generated material when {@code tls: true}. */
final class Tls {
    private Tls() {}

    static Optional<TlsProvider> provider(ClusterSpec spec) {
        if (!spec.tls()) {
            return Optional.empty();
        }
        return Optional.of(new GeneratedTls(new ClusterLayout(spec.baseDir()).certsDir(), spec.members()));
    }
}
