package io.etcdj.launcher.cli;

import io.etcdj.cli.ExitCodes;
import io.etcdj.launcher.LauncherException;
import io.etcdj.launcher.supervisor.ClusterState;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** Member lifecycle: stop, restart, kill, pause and resume (goreman's {@code run} verbs and more). */
final class LifecycleCommands {
    private LifecycleCommands() {}

    @Command(name = "stop", mixinStandardHelpOptions = true,
            description = "Stop members with SIGTERM (SIGKILL after 10s); their data is kept. With no NAME, stop the whole cluster and the "
                    + "launcher.")
    static final class Stop implements Callable<Integer> {
        @ParentCommand LauncherCommand root;
        @Mixin ClusterOptions cluster;
        @Parameters(paramLabel = "NAME", arity = "0..*") List<String> names = List.of();

        @Override
        public Integer call() throws Exception {
            List<Leftovers.Leftover> leftovers = cluster.state(root.context()).map(Leftovers::find).orElse(List.of());
            if (names.isEmpty() && !leftovers.isEmpty()) {
                Leftovers.stop(leftovers, root.context().out());
                return ExitCodes.SUCCESS;
            }
            Optional<ClusterState> stopping = cluster.state(root.context())
                    .filter(s -> ClusterState.STOPPING.equals(s.phase()) && s.supervisorAlive());
            ClusterState state = names.isEmpty() && stopping.isPresent() ? stopping.get() : cluster.runningState(root.context());
            int code = stopping.isPresent() && names.isEmpty() ? ExitCodes.SUCCESS : Forwarding.send(root, cluster, "stop", names);
            if (code == ExitCodes.SUCCESS && names.isEmpty()) {
                Optional<ProcessHandle> launcher = ProcessHandle.of(state.supervisorPid());
                if (launcher.isPresent()) {
                    try {
                        launcher.get().onExit().get(60, TimeUnit.SECONDS);
                    } catch (TimeoutException e) {
                        throw new LauncherException("the launcher (pid " + state.supervisorPid() + ") did not stop within 60s");
                    }
                }
                root.context().out().println("cluster stopped");
            }
            return code;
        }
    }

    @Command(name = "restart", mixinStandardHelpOptions = true,
            description = "Stop members (if running) and start them again with the same command line.")
    static final class Restart implements Callable<Integer> {
        @ParentCommand LauncherCommand root;
        @Mixin ClusterOptions cluster;
        @Parameters(paramLabel = "NAME", arity = "1..*") List<String> names;

        @Override
        public Integer call() {
            return Forwarding.send(root, cluster, "restart", names);
        }
    }

    @Command(name = "kill", mixinStandardHelpOptions = true,
            description = "Kill members with SIGKILL, as a crash would; restart brings them back.")
    static final class Kill implements Callable<Integer> {
        @ParentCommand LauncherCommand root;
        @Mixin ClusterOptions cluster;
        @Parameters(paramLabel = "NAME", arity = "1..*") List<String> names;

        @Override
        public Integer call() {
            return Forwarding.send(root, cluster, "kill", names);
        }
    }

    @Command(name = "pause", mixinStandardHelpOptions = true,
            description = "Freeze members with SIGSTOP: they keep their sockets but answer nothing.")
    static final class Pause implements Callable<Integer> {
        @ParentCommand LauncherCommand root;
        @Mixin ClusterOptions cluster;
        @Parameters(paramLabel = "NAME", arity = "1..*") List<String> names;

        @Override
        public Integer call() {
            return Forwarding.send(root, cluster, "pause", names);
        }
    }

    @Command(name = "resume", mixinStandardHelpOptions = true, description = "Continue paused members with SIGCONT.")
    static final class Resume implements Callable<Integer> {
        @ParentCommand LauncherCommand root;
        @Mixin ClusterOptions cluster;
        @Parameters(paramLabel = "NAME", arity = "1..*") List<String> names;

        @Override
        public Integer call() {
            return Forwarding.send(root, cluster, "resume", names);
        }
    }
}
