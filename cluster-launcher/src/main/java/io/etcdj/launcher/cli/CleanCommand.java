package io.etcdj.launcher.cli;

import io.etcdj.cli.ExitCodes;
import io.etcdj.launcher.LauncherException;
import io.etcdj.launcher.process.ClusterLayout;
import io.etcdj.launcher.spec.ClusterSpec;
import io.etcdj.launcher.spec.MemberSpec;
import io.etcdj.launcher.supervisor.ClusterState;
import io.etcdj.launcher.supervisor.ControlClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.ParentCommand;

/**
 * {@code clean}: stops the cluster if it runs, then deletes what the launcher created under the
 * base dir (data dirs, certificates, state, and *.log files) and the base dir itself once empty.
 * Other files are left alone.
 */
@Command(name = "clean", mixinStandardHelpOptions = true,
        description = "Stop the cluster (if running) and delete its data dirs, logs, certificates and state.")
final class CleanCommand implements Callable<Integer> {
    @ParentCommand LauncherCommand root;
    @Mixin ClusterOptions cluster;

    @Override
    public Integer call() throws Exception {
        LauncherContext ctx = root.context();
        ClusterSpec spec = cluster.load(ctx);
        ClusterLayout layout = new ClusterLayout(spec.baseDir());
        Optional<ClusterState> state = cluster.state(ctx);
        if (state.isPresent() && state.get().supervisorAlive()) {
            ClusterState s = state.get();
            if (ClusterState.RUNNING.equals(s.phase())) {
                ControlClient.send(s, List.of("stop"), ctx.out(), ctx.err());
            }
            ProcessHandle.of(s.supervisorPid()).ifPresent(h -> {
                try {
                    h.onExit().get(60, TimeUnit.SECONDS);
                } catch (Exception e) {
                    throw new LauncherException("the launcher (pid " + s.supervisorPid() + ") did not stop within 60s");
                }
            });
        }
        state.ifPresent(s -> Leftovers.stop(Leftovers.find(s), ctx.out()));

        Set<Path> targets = new LinkedHashSet<>();
        for (MemberSpec m : spec.members()) {
            targets.add(layout.dataDir(m));
            targets.add(layout.logFile(m));
        }
        state.ifPresent(s -> s.members().forEach(m -> {
            targets.add(Path.of(m.dataDir()));
            targets.add(Path.of(m.logFile()));
        }));
        if (Files.isDirectory(layout.baseDir())) {
            // logs of members removed from the cluster are in no list any more
            try (Stream<Path> files = Files.list(layout.baseDir())) {
                files.filter(p -> p.getFileName().toString().endsWith(".log")).forEach(targets::add);
            }
        }
        targets.add(layout.certsDir());
        targets.add(layout.supervisorLog());
        targets.add(layout.stateFile());
        int removed = 0;
        for (Path p : targets) {
            if (Files.exists(p)) {
                deleteTree(p);
                ctx.out().println("removed " + p);
                removed++;
            }
        }
        if (Files.isDirectory(layout.baseDir())) {
            try (Stream<Path> left = Files.list(layout.baseDir())) {
                if (left.findAny().isEmpty()) {
                    Files.delete(layout.baseDir());
                    ctx.out().println("removed " + layout.baseDir());
                    removed++;
                }
            }
        }
        if (removed == 0) {
            ctx.out().println("nothing to clean in " + layout.baseDir());
        }
        return ExitCodes.SUCCESS;
    }

    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
