package io.etcdj.launcher.cli;

import io.etcdj.cli.ExitCodes;
import io.etcdj.launcher.LauncherException;
import io.etcdj.launcher.process.ClusterLayout;
import io.etcdj.launcher.process.EtcdBinary;
import io.etcdj.launcher.spec.ClusterFileException;
import io.etcdj.launcher.spec.ClusterFiles;
import io.etcdj.launcher.spec.ClusterSpec;
import io.etcdj.launcher.supervisor.ClusterState;
import io.etcdj.launcher.supervisor.StateFile;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** Options every command takes to find its cluster. */
public final class ClusterOptions {
    @Option(names = {"-f", "--file"}, paramLabel = "FILE",
            description = "Cluster file: launcher YAML or a plain Procfile (default: the built-in 3-member cluster).")
    Path file;

    @Option(names = "--base-dir", paramLabel = "DIR",
            description = "Directory for data dirs, logs and launcher state (overrides base-dir: in the file).")
    Path baseDir;

    /** The command this mixin belongs to, to fall back on options given before the command. */
    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    /** The file from this command's options, else from the root's ({@code cluster-launcher -f F up}). */
    Path file() {
        if (file != null || mixee == null) {
            return file;
        }
        return ((LauncherCommand) mixee.root().userObject()).file;
    }

    Path baseDir() {
        if (baseDir != null || mixee == null) {
            return baseDir;
        }
        return ((LauncherCommand) mixee.root().userObject()).baseDir;
    }

    ClusterSpec load(LauncherContext ctx) {
        ClusterSpec spec;
        try {
            spec = ClusterFiles.load(Optional.ofNullable(file()).map(f -> ctx.cwd().resolve(f)), ctx.cwd(), ctx.env());
        } catch (ClusterFileException e) {
            throw new LauncherException(e.getMessage(), ExitCodes.BAD_CLUSTER_FILE);
        }
        return baseDir() == null ? spec : spec.withBaseDir(ctx.cwd().resolve(baseDir()).normalize());
    }

    ClusterLayout layout(LauncherContext ctx) {
        return new ClusterLayout(load(ctx).baseDir());
    }

    Optional<ClusterState> state(LauncherContext ctx) {
        return new StateFile(layout(ctx).stateFile()).read();
    }

    /** The state of a cluster whose supervisor is alive, or a NOT_RUNNING error. */
    ClusterState runningState(LauncherContext ctx) {
        ClusterLayout layout = layout(ctx);
        return new StateFile(layout.stateFile()).read()
                .filter(s -> ClusterState.RUNNING.equals(s.phase()) && s.supervisorAlive())
                .orElseThrow(() -> new LauncherException("no cluster is running in " + layout.baseDir()
                        + " (start one with: cluster-launcher up)", ExitCodes.NOT_RUNNING));
    }

    Path fileDir(LauncherContext ctx) {
        return file() == null ? ctx.cwd() : ctx.cwd().resolve(file()).toAbsolutePath().getParent();
    }

    EtcdBinary binary(LauncherContext ctx, ClusterSpec spec, Optional<String> option) {
        return EtcdBinary.resolve(option, ctx.env(), spec.etcdBinary(), ctx.installHome(), fileDir(ctx));
    }
}
