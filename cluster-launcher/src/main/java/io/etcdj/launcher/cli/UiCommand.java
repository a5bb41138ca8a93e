package io.etcdj.launcher.cli;

import io.etcdj.cli.ExitCodes;
import io.etcdj.launcher.LauncherException;
import io.etcdj.launcher.dashboard.Dashboard;
import io.etcdj.launcher.process.ClusterLayout;
import io.etcdj.launcher.supervisor.ClusterState;
import io.etcdj.launcher.supervisor.StateFile;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code ui}: serves the dashboard for the cluster of the base dir until Ctrl-C. It acts through
 * the running supervisor's control port, like every other command, so it works for a cluster
 * started in the background ({@code up -d}) and keeps working when that cluster is stopped and
 * started again.
 */
@Command(name = "ui", mixinStandardHelpOptions = true,
        description = "Serve the dashboard: a live web page of the cluster on 127.0.0.1 (the address is printed) with buttons to kill, "
                + "stop, pause, partition and move the leader, charts, a key browser and an event log. Runs until Ctrl-C.")
final class UiCommand implements Callable<Integer> {
    @ParentCommand LauncherCommand root;
    @Mixin ClusterOptions cluster;

    @Option(names = "--port", paramLabel = "PORT", description = "Port on 127.0.0.1 (default: a free port).")
    Integer port;

    @Override
    public Integer call() throws InterruptedException {
        LauncherContext ctx = root.context();
        ClusterLayout layout = cluster.layout(ctx);
        Dashboard dashboard = Dashboard.start(layout.stateFile(), port(true, port).getAsInt());
        Runtime.getRuntime().addShutdownHook(new Thread(dashboard::close, "dashboard-shutdown"));
        boolean running = new StateFile(layout.stateFile()).read().map(ClusterState::supervisorAlive).orElse(false);
        if (!running) {
            ctx.out().println("no cluster is running in " + layout.baseDir() + " yet; the page shows it once it starts"
                    + " (cluster-launcher up -d)");
        }
        ctx.out().println("dashboard: open " + dashboard.url() + " in a browser (Ctrl-C stops it)");
        ctx.out().flush();
        new CountDownLatch(1).await(); // until Ctrl-C, SIGTERM or SIGHUP; the hook closes the server
        return ExitCodes.SUCCESS;
    }

    /** The dashboard port to use, when one is wanted: {@code port}, or 0 for a free one. */
    static OptionalInt port(boolean wanted, Integer port) {
        if (!wanted) {
            return OptionalInt.empty();
        }
        if (port != null && (port < 0 || port > 65535)) {
            throw new LauncherException("the dashboard port must be 0 to 65535, got " + port, ExitCodes.USAGE);
        }
        return OptionalInt.of(port == null ? 0 : port);
    }
}
