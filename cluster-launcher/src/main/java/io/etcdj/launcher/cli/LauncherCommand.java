package io.etcdj.launcher.cli;

import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** The root command; subcommands reach the {@link LauncherContext} through it. */
@Command(name = "cluster-launcher", mixinStandardHelpOptions = true,
        version = "cluster-launcher (etcdj) 0.1.0",
        description = "Starts a local multi-member etcd cluster from a Procfile-style YAML (or a plain Procfile) and controls it: stop, "
                + "restart, kill, pause members, change membership, partition or slow down peer links.",
        subcommands = {
            UpCommand.class,
            LifecycleCommands.Stop.class,
            LifecycleCommands.Restart.class,
            LifecycleCommands.Kill.class,
            LifecycleCommands.Pause.class,
            LifecycleCommands.Resume.class,
            StatusCommand.class,
            LogsCommand.class,
            EnvCommand.class,
            MembershipCommands.AddMember.class,
            MembershipCommands.Promote.class,
            MembershipCommands.RemoveMember.class,
            MembershipCommands.MoveLeader.class,
            FaultCommands.Partition.class,
            FaultCommands.Delay.class,
            FaultCommands.Heal.class,
            UiCommand.class,
            CleanCommand.class,
            SuperviseCommand.class
        })
public final class LauncherCommand implements Runnable {
    /** Also accepted before the command, as goreman takes it: {@code cluster-launcher -f Procfile up}. */
    @Option(names = {"-f", "--file"}, paramLabel = "FILE",
            description = "Cluster file for the command (it may also follow the command).")
    Path file;

    @Option(names = "--base-dir", paramLabel = "DIR", description = "Base dir for the command (it may also follow the command).")
    Path baseDir;

    private final LauncherContext context;

    public LauncherCommand(LauncherContext context) {
        this.context = context;
    }

    public LauncherContext context() {
        return context;
    }

    @Override
    public void run() {
        new picocli.CommandLine(this).usage(context.out());
    }
}
