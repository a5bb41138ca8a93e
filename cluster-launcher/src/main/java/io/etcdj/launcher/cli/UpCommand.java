package io.etcdj.launcher.cli;

import io.etcdj.cli.progress.Terminals;
import io.etcdj.launcher.process.ConsoleLog;
import io.etcdj.launcher.process.EtcdBinary;
import io.etcdj.launcher.spec.ClusterSpec;
import io.etcdj.launcher.spec.MemberSpec;
import io.etcdj.launcher.supervisor.ControlClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code up}/{@code start}: with no names, starts the whole cluster (in the foreground, or in a
 * background supervisor with {@code --detach}); with names, starts those stopped members of the
 * running cluster again.
 */
@Command(name = "up", aliases = "start", mixinStandardHelpOptions = true,
        description = "Start the cluster and wait until every member serves clients. In the foreground, member logs are shown with "
                + "coloured name prefixes and Ctrl-C stops everyone. With NAMEs, start those stopped members of the running cluster.")
final class UpCommand implements Callable<Integer> {
    @ParentCommand LauncherCommand root;
    @Mixin ClusterOptions cluster;

    @Parameters(paramLabel = "NAME", arity = "0..*", description = "Members to start again in the running cluster.")
    List<String> names = new ArrayList<>();

    @Option(names = {"-d", "--detach"}, description = "Run in the background; member logs go to files under the base dir.")
    boolean detach;

    @Option(names = "--etcd-binary", paramLabel = "PATH",
            description = "etcd binary to run (default: ETCD_BIN, else etcd: in the file, else the project's bin/etcd, else etcd on the "
                    + "PATH).")
    String etcdBinary;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "60",
            description = "How long to wait for members to serve clients (default: ${DEFAULT-VALUE}).")
    int timeoutSeconds;

    @Option(names = "--no-color", description = "No colours in the log prefixes.")
    boolean noColour;

    @Option(names = "--ui",
            description = "Also serve the dashboard, a live web page of the cluster, on 127.0.0.1 (the address is printed).")
    boolean ui;

    @Option(names = "--ui-port", paramLabel = "PORT",
            description = "Port of the dashboard (implies --ui; default: a free port).")
    Integer uiPort;

    @Override
    public Integer call() throws Exception {
        LauncherContext ctx = root.context();
        if (!names.isEmpty()) {
            List<String> request = new ArrayList<>(List.of("start"));
            request.addAll(names);
            return ControlClient.send(cluster.runningState(ctx), request, ctx.out(), ctx.err());
        }
        ClusterSpec spec = cluster.load(ctx);
        ClusterRunner.refuseIfRunning(spec);
        EtcdBinary binary = cluster.binary(ctx, spec, Optional.ofNullable(etcdBinary));
        Duration timeout = Duration.ofSeconds(timeoutSeconds);
        OptionalInt dashboardPort = UiCommand.port(ui || uiPort != null, uiPort);
        if (detach) {
            return Detacher.start(ctx, cluster, spec, binary, timeout, dashboardPort);
        }
        List<String> processes = new ArrayList<>(spec.members().stream().map(MemberSpec::process).toList());
        processes.add("launcher");
        ConsoleLog console = new ConsoleLog(ctx.out(), !noColour && ConsoleLog.colourByDefault(ctx.env()), processes);
        console.line("launcher", "etcd binary: " + binary.path() + " (" + binary.origin() + ")");
        console.line("launcher", "base dir: " + spec.baseDir());
        // Every log line passes the progress line, which makes room for it (see UpProgress).
        UpProgress logs = new UpProgress(Terminals.progressShown(ctx.out(), ctx.err(), false), ctx.err(), console);
        return ClusterRunner.run(spec, binary, Tls.provider(spec), logs, timeout, dashboardPort,
                msg -> logs.line("launcher", msg), logs);
    }
}
