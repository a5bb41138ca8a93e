package io.etcdj.launcher.cli;

import io.etcdj.cli.ExitCodes;
import io.etcdj.cli.progress.Terminals;
import io.etcdj.launcher.LauncherException;
import io.etcdj.launcher.process.ClusterLayout;
import io.etcdj.launcher.process.EtcdBinary;
import io.etcdj.launcher.process.LogSink;
import io.etcdj.launcher.spec.ClusterSpec;
import io.etcdj.launcher.supervisor.ClusterState;
import io.etcdj.launcher.supervisor.StateFile;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * {@code up --detach}: starts the background supervisor (this same program, hidden subcommand)
 * in its own session so it outlives the terminal, then waits for the state file to say the
 * cluster is running or why it failed.
 */
final class Detacher {
    private Detacher() {}

    static int start(LauncherContext ctx, ClusterOptions options, ClusterSpec spec, EtcdBinary binary,
            Duration timeout, OptionalInt uiPort) throws IOException, InterruptedException {
        ClusterLayout layout = new ClusterLayout(spec.baseDir());
        Files.createDirectories(layout.baseDir());
        StateFile stateFile = new StateFile(layout.stateFile());
        List<String> cmd = new ArrayList<>();
        if (Files.isExecutable(Path.of("/usr/bin/setsid"))) {
            cmd.add("/usr/bin/setsid");
        }
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(List.of("-Xmx256m", "-Xss512k", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), "io.etcdj.launcher.Main", "__supervise"));
        if (options.file() != null) {
            cmd.addAll(List.of("-f", ctx.cwd().resolve(options.file()).toString()));
        }
        cmd.addAll(List.of("--base-dir", spec.baseDir().toString(), "--etcd-binary", binary.path().toString(),
                "--timeout", Long.toString(timeout.toSeconds())));
        uiPort.ifPresent(p -> cmd.addAll(List.of("--ui-port", Integer.toString(p))));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(ctx.cwd().toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.to(layout.supervisorLog().toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        pb.environment().putAll(ctx.env());
        Process supervisor = pb.start();

        long deadline = System.nanoTime() + timeout.plusSeconds(30).toNanos();
        try (UpProgress progress = new UpProgress(Terminals.progressShown(ctx.out(), ctx.err(), false), ctx.err(),
                LogSink.NONE)) {
            while (System.nanoTime() < deadline) {
                Optional<ClusterState> state = stateFile.read().filter(s -> s.supervisorPid() == supervisor.pid());
                if (state.isPresent() && ClusterState.RUNNING.equals(state.get().phase()) && state.get().controlPort() > 0) {
                    progress.close();
                    printStarted(ctx, state.get(), binary);
                    return ExitCodes.SUCCESS;
                }
                if (state.isPresent() && ClusterState.FAILED.equals(state.get().phase())) {
                    supervisor.waitFor();
                    throw new LauncherException(state.get().error());
                }
                if (!supervisor.isAlive()) {
                    throw new LauncherException("the background launcher exited with code " + supervisor.exitValue()
                            + "; its output:\n" + tail(layout.supervisorLog()));
                }
                state.ifPresent(s -> report(progress, s));
                Thread.sleep(100);
            }
        }
        supervisor.destroy();
        throw new LauncherException("the cluster did not come up in time; see " + layout.supervisorLog());
    }

    /** The background supervisor's start-up as the state file records it: members started, then serving. */
    private static void report(UpProgress progress, ClusterState state) {
        int total = state.members().size();
        int started = (int) state.members().stream().filter(m -> m.pid() > 0).count();
        if (total == 0 || !ClusterState.STARTING.equals(state.phase())) {
            return;
        }
        if (started < total) {
            progress.started(started, total);
        } else {
            progress.serving(state.serving(), total);
        }
    }

    private static void printStarted(LauncherContext ctx, ClusterState state, EtcdBinary binary) {
        ctx.out().println("etcd binary: " + binary.path() + " (" + binary.origin() + ")");
        for (ClusterState.MemberState m : state.members()) {
            ctx.out().println("started " + m.process() + " (pid " + m.pid() + ") client " + String.join(",", m.clientUrls())
                    + " peer " + String.join(",", m.peerUrls()) + " log " + m.logFile());
        }
        ctx.out().println("cluster is up; launcher pid " + state.supervisorPid() + ", state in " + state.baseDir());
        if (state.dashboard() != null && !state.dashboard().isEmpty()) {
            ctx.out().println("dashboard: open " + state.dashboard() + " in a browser");
        }
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException e) {
            return "(no output)";
        }
    }
}
