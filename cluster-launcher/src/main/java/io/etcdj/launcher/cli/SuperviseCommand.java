package io.etcdj.launcher.cli;

import io.etcdj.launcher.process.EtcdBinary;
import io.etcdj.launcher.process.LogSink;
import io.etcdj.launcher.spec.ClusterSpec;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * The background supervisor {@code up --detach} starts: owns the members and proxies until
 * {@code stop}, reporting through the state file. Not meant to be typed, hence hidden.
 */
@Command(name = "__supervise", hidden = true)
final class SuperviseCommand implements Callable<Integer> {
    @ParentCommand LauncherCommand root;
    @Mixin ClusterOptions cluster;

    @Option(names = "--etcd-binary", required = true)
    String etcdBinary;

    @Option(names = "--timeout", defaultValue = "60")
    int timeoutSeconds;

    /** -1: no dashboard. */
    @Option(names = "--ui-port", defaultValue = "-1")
    int uiPort;

    @Override
    public Integer call() throws Exception {
        LauncherContext ctx = root.context();
        ClusterSpec spec = cluster.load(ctx);
        EtcdBinary binary = cluster.binary(ctx, spec, Optional.of(etcdBinary));
        return ClusterRunner.run(spec, binary, Tls.provider(spec), LogSink.NONE,
                Duration.ofSeconds(timeoutSeconds), uiPort < 0 ? OptionalInt.empty() : OptionalInt.of(uiPort),
                msg -> ctx.out().println(msg));
    }
}
