package io.etcdj.launcher.cli;

import io.etcdj.cli.ExitCodes;
import io.etcdj.launcher.spec.ClusterSpec;
import io.etcdj.launcher.supervisor.ClusterState;
import java.net.URI;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.ParentCommand;

/** {@code env}: shell exports for etcdctl, to use as {@code eval "$(cluster-launcher env)"}. */
@Command(name = "env", mixinStandardHelpOptions = true,
        description = "Print export lines for etcdctl (ETCDCTL_API, ETCDCTL_ENDPOINTS and, with TLS, ETCDCTL_CACERT/CERT/KEY). Use: eval "
                + "\"$(cluster-launcher env)\"")
final class EnvCommand implements Callable<Integer> {
    @ParentCommand LauncherCommand root;
    @Mixin ClusterOptions cluster;

    @Override
    public Integer call() {
        LauncherContext ctx = root.context();
        Optional<ClusterState> state = cluster.state(ctx).filter(s -> !s.members().isEmpty());
        List<String> endpoints;
        if (state.isPresent()) {
            endpoints = state.get().members().stream().map(m -> m.clientUrls().get(0)).toList();
        } else {
            ClusterSpec spec = cluster.load(ctx);
            endpoints = spec.members().stream().map(m -> m.clientUrl()).map(URI::toString).toList();
        }
        ctx.out().println("export ETCDCTL_API=3");
        ctx.out().println("export ETCDCTL_ENDPOINTS=" + shellQuote(String.join(",", endpoints)));
        state.map(ClusterState::tls).ifPresent(t -> {
            ctx.out().println("export ETCDCTL_CACERT=" + shellQuote(t.caCert()));
            ctx.out().println("export ETCDCTL_CERT=" + shellQuote(t.clientCert()));
            ctx.out().println("export ETCDCTL_KEY=" + shellQuote(t.clientKey()));
        });
        return ExitCodes.SUCCESS;
    }

    /** Leaves plain values alone and single-quotes the rest, so eval never splits a path. */
    static String shellQuote(String value) {
        if (value.matches("[A-Za-z0-9_./:,=@%+-]+")) {
            return value;
        }
        return "'" + value.replace("'", "'\\''") + "'";
    }
}
