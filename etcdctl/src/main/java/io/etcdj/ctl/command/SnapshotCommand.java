package io.etcdj.ctl.command;

import io.etcdj.cli.CliException;
import io.etcdj.cli.ExitCodes;
import io.etcdj.ctl.cli.CtlCommand;
import io.etcdj.ctl.cli.CtlContext;
import io.etcdj.etcdutl.Main;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code snapshot save file}: streams the backend snapshot of one endpoint into a file;
 * {@code snapshot restore} and {@code snapshot status}, which etcd 3.5 moved to etcdutl and which
 * scripts still call as etcdctl's: kept with etcd 3.5's deprecation notice, run by etcdutl's own code.
 */
@Command(name = "snapshot", description = "Manages etcd node snapshots",
        customSynopsis = "etcdctl snapshot <subcommand> [flags]",
        subcommands = {SnapshotCommand.Save.class, SnapshotCommand.Restore.class, SnapshotCommand.StatusOfFile.class})
public final class SnapshotCommand {

    /** Runs an etcdutl command line with etcdctl's streams; a failure keeps etcdutl's exit code and message. */
    private static void etcdutl(CtlContext ctx, String command, List<String> args) {
        ctx.err().print("Deprecated: Use `etcdutl snapshot " + command + "` instead.\n\n");
        List<String> all = new ArrayList<>(List.of("snapshot", command));
        all.addAll(args);
        all.addAll(List.of("-w", ctx.options().writeOut()));
        int code = Main.run(all.toArray(new String[0]), ctx.out().stream(), ctx.err());
        if (code != ExitCodes.SUCCESS) {
            throw new CliException(code, null);
        }
    }

    @Command(name = "restore", description = "Restores an etcd member snapshot to an etcd directory",
            customSynopsis = "etcdctl snapshot restore <filename> [options] [flags]")
    public static final class Restore extends CtlCommand {
        @picocli.CommandLine.Option(names = "--data-dir", defaultValue = "", description = "Path to the data directory")
        String dataDir;

        @picocli.CommandLine.Option(names = "--wal-dir", defaultValue = "",
                description = "Path to the WAL directory (use --data-dir if none given)")
        String walDir;

        @picocli.CommandLine.Option(names = "--initial-cluster", defaultValue = "default=http://localhost:2380",
                description = "Initial cluster configuration for restore bootstrap")
        String initialCluster;

        @picocli.CommandLine.Option(names = "--initial-cluster-token", defaultValue = "etcd-cluster",
                description = "Initial cluster token for the etcd cluster during restore bootstrap")
        String initialClusterToken;

        @picocli.CommandLine.Option(names = "--initial-advertise-peer-urls", defaultValue = "http://localhost:2380",
                description = "List of this member's peer URLs to advertise to the rest of the cluster")
        String initialAdvertisePeerUrls;

        @picocli.CommandLine.Option(names = "--name", defaultValue = "default", description = "Human-readable name for this member")
        String name;

        @picocli.CommandLine.Option(names = "--skip-hash-check", arity = "0..1",
                description = "Ignore snapshot integrity hash value (required if copied from data directory)")
        boolean skipHashCheck;

        @Parameters(arity = "0..*")
        List<String> args;

        /** etcdutl's code opens its paths against the process's working directory. */
        @Override
        public boolean needsOwnProcess(boolean terminal) {
            return true;
        }

        @Override
        protected void run() {
            List<String> a = new ArrayList<>(orEmpty(args));
            a.addAll(List.of("--initial-cluster", initialCluster, "--initial-cluster-token", initialClusterToken,
                    "--initial-advertise-peer-urls", initialAdvertisePeerUrls, "--name", name));
            if (!dataDir.isEmpty()) {
                a.addAll(List.of("--data-dir", dataDir));
            }
            if (!walDir.isEmpty()) {
                a.addAll(List.of("--wal-dir", walDir));
            }
            if (skipHashCheck) {
                a.add("--skip-hash-check");
            }
            etcdutl(ctx, "restore", a);
        }
    }

    @Command(name = "status", description = "Gets backend snapshot status of a given file",
            customSynopsis = "etcdctl snapshot status <filename> [flags]",
            header = {"When --write-out is set to simple, this command prints out comma-separated status lists for each endpoint.",
                "The items in the lists are hash, revision, total keys, total size."})
    public static final class StatusOfFile extends CtlCommand {
        @Parameters(arity = "0..*")
        List<String> args;

        /** etcdutl's code opens its paths against the process's working directory. */
        @Override
        public boolean needsOwnProcess(boolean terminal) {
            return true;
        }

        @Override
        protected void run() {
            etcdutl(ctx, "status", orEmpty(args));
        }
    }

    /**
     * Writes to {@code file.part} and renames it when complete, so a failed save leaves no torn file.
     * Beyond etcd (its #11695): given several endpoints, where etcdctl refuses, it asks each in turn
     * until one delivers the whole snapshot, and says on stderr which member the file came from.
     */
    @Command(name = "save", description = "Stores an etcd node backend snapshot to a given file",
            customSynopsis = "etcdctl snapshot save <filename> [flags]")
    public static final class Save extends CtlCommand {
        @Parameters(arity = "0..*")
        List<String> args;

        /** At a terminal the progress line needs the process's own stderr. */
        @Override
        public boolean needsOwnProcess(boolean terminal) {
            return terminal;
        }

        @Override
        protected void run() {
            String arg = onlyArg(args, "snapshot save expects one argument");
            List<String> eps = ctx.endpoints();
            // Messages name the files as typed; the file operations use them resolved (see CtlContext.file).
            Path target = ctx.file(arg);
            Path part = ctx.file(arg + ".part");
            String partName = arg + ".part";
            SnapshotLog log = new SnapshotLog(ctx.err());
            if (eps.isEmpty()) {
                throw new CliException(ExitCodes.BAD_CONNECTION, "etcdclient: no available endpoints");
            }
            SnapshotDownload.Result got = null;
            for (int i = 0; i < eps.size() && got == null; i++) {
                String ep = eps.get(i);
                try {
                    got = SnapshotDownload.fetch(ctx, ep, part, partName, log, eps.size() > 1);
                } catch (CliException e) {
                    if (i == eps.size() - 1) {
                        throw e;
                    }
                    ctx.err().println("Error: snapshot from " + ep + " failed (" + e.getMessage()
                            + "); trying the next endpoint");
                }
            }
            try {
                Files.move(part, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                throw new CliException(ExitCodes.INTERRUPTED, "could not rename " + partName + " to " + arg, e);
            }
            log.epoch("snapshot/v3_snapshot.go:152", "saved", ",\"path\":\"" + arg + "\"");
            if (eps.size() > 1) {
                ctx.err().println("Snapshot taken from " + got.member() + " at " + got.endpoint());
            }
            ctx.out().println("Snapshot saved at " + arg);
        }
    }
}
