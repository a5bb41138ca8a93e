package io.etcdj.launcher.cli;

import io.etcdj.launcher.LauncherException;
import io.etcdj.launcher.spec.ClusterSpec;
import io.etcdj.launcher.supervisor.TlsProvider;
import java.util.Optional;

/** Chooses the certificate source for a cluster with {@code tls: true}. */
final class Tls {
  private Tls() {}

  static Optional<TlsProvider> provider(ClusterSpec spec) {
    if (!spec.tls()) {
      return Optional.empty();
    }
    throw new LauncherException("tls: true is not supported by this build of cluster-launcher");
  }
}
