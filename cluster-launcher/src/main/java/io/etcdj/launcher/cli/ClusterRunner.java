package io.etcdj.launcher.cli;

import io.etcdj.cli.ExitCodes;
import io.etcdj.launcher.LauncherException;
import io.etcdj.launcher.dashboard.Dashboard;
import io.etcdj.launcher.process.ClusterLayout;
import io.etcdj.launcher.process.EtcdBinary;
import io.etcdj.launcher.process.LogSink;
import io.etcdj.launcher.spec.ClusterSpec;
import io.etcdj.launcher.supervisor.ClusterState;
import io.etcdj.launcher.supervisor.ControlServer;
import io.etcdj.launcher.supervisor.StartupProgress;
import io.etcdj.launcher.supervisor.StateFile;
import io.etcdj.launcher.supervisor.Supervisor;
import io.etcdj.launcher.supervisor.TlsProvider;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Consumer;

/**
 * Runs a cluster in this JVM until it is told to stop: starts the members, opens the control
 * port, and tears everything down on {@code stop}, SIGINT or SIGTERM (through a shutdown hook, so
 * no member outlives the launcher).
 */
final class ClusterRunner {
    private ClusterRunner() {}

    static void refuseIfRunning(ClusterSpec spec) {
        Optional<ClusterState> state = new StateFile(new ClusterLayout(spec.baseDir()).stateFile()).read();
        state.filter(ClusterState::supervisorAlive).ifPresent(s -> {
            throw new LauncherException("a cluster is already running in " + spec.baseDir()
                    + " (launcher pid " + s.supervisorPid() + "); stop it first with: cluster-launcher stop");
        });
        List<Leftovers.Leftover> leftovers = state.map(Leftovers::find).orElse(List.of());
        if (!leftovers.isEmpty()) {
            throw new LauncherException("members of an earlier launcher that did not stop them are still running: "
                    + Leftovers.describe(leftovers) + "; stop them with: cluster-launcher stop");
        }
    }

    /**
     * Runs the cluster until it is stopped. With {@code uiPort}, also serves the dashboard on that
     * port (0: a free one), opened before the members start so that a taken port fails first and
     * the page shows the start-up too.
     */
    static int run(ClusterSpec spec, EtcdBinary binary, Optional<TlsProvider> tls, LogSink sink,
            Duration timeout, OptionalInt uiPort, Consumer<String> progress) throws InterruptedException {
        return run(spec, binary, tls, sink, timeout, uiPort, progress, null);
    }

    /**
     * {@link #run(ClusterSpec, EtcdBinary, Optional, LogSink, Duration, OptionalInt, Consumer)} with
     * {@code up}'s progress line (null: none), erased once the cluster is up or failed to come up.
     */
    static int run(ClusterSpec spec, EtcdBinary binary, Optional<TlsProvider> tls, LogSink sink,
            Duration timeout, OptionalInt uiPort, Consumer<String> progress, UpProgress startup)
            throws InterruptedException {
        ClusterSpec effective = uiPort.isPresent() ? DashboardFlags.apply(spec) : spec;
        Supervisor supervisor = new Supervisor(effective, binary, tls, sink, timeout);
        Optional<Dashboard> dashboard = uiPort.isPresent()
                ? Optional.of(Dashboard.start(supervisor.layout().stateFile(), uiPort.getAsInt())) : Optional.empty();
        try {
            dashboard.ifPresent(d -> {
                supervisor.dashboardAt(d.url().toString());
                progress.accept("dashboard: " + d.url());
            });
            Thread hook = new Thread(supervisor::shutdown, "launcher-shutdown");
            Runtime.getRuntime().addShutdownHook(hook);
            Optional<ClusterState> previous = new StateFile(new ClusterLayout(spec.baseDir()).stateFile()).read();
            try {
                supervisor.startCluster(previous, progress, startup == null ? StartupProgress.NONE : startup);
            } finally {
                if (startup != null) {
                    startup.close();
                }
            }
            ControlServer control = new ControlServer(supervisor::handle);
            control.start();
            supervisor.attach(control);
            progress.accept("cluster is up: " + String.join(",", spec.members().stream()
                    .map(m -> m.clientUrl().toString()).toList()));
            dashboard.ifPresent(d -> progress.accept("dashboard: open " + d.url() + " in a browser"));
            supervisor.awaitShutdown();
            return ExitCodes.SUCCESS;
        } finally {
            dashboard.ifPresent(Dashboard::close);
        }
    }
}
