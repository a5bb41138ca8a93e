package io.etcdj.etcdutl;

import io.etcdj.cli.CliException;
import io.etcdj.cli.ExitCodes;
import io.etcdj.server.datadir.DataDirException;
import io.etcdj.server.datadir.DataDirLayout;
import io.etcdj.server.datadir.InitialCluster;
import io.etcdj.server.datadir.RestoreConfig;
import io.etcdj.server.datadir.SnapshotRestore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "restore", description = "Restores an etcd member snapshot to an etcd directory",
        customSynopsis = "etcdutl snapshot restore <filename> --data-dir {output dir} [options] [flags]")
final class SnapshotRestoreCommand implements Callable<Integer> {
    private static final String DEFAULT_NAME = "default";
    private final Context ctx;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "help for restore")
    boolean help;

    @Option(names = "--data-dir", paramLabel = "string", description = "Path to the output data directory")
    String dataDir = "";

    @Option(names = "--wal-dir", paramLabel = "string", description = "Path to the WAL directory (use --data-dir if none given)")
    String walDir = "";

    @Option(names = "--name", paramLabel = "string", description = "Human-readable name for this member (default \"default\")")
    String name = DEFAULT_NAME;

    @Option(names = "--initial-cluster", paramLabel = "string",
            description = "Initial cluster configuration for restore bootstrap (default \"default=http://localhost:2380\")")
    String initialCluster = DEFAULT_NAME + "=http://localhost:2380";

    @Option(names = "--initial-cluster-token", paramLabel = "string",
            description = "Initial cluster token for the etcd cluster during restore bootstrap (default \"etcd-cluster\")")
    String initialClusterToken = "etcd-cluster";

    @Option(names = "--initial-advertise-peer-urls", paramLabel = "string",
            description = "List of this member's peer URLs to advertise to the rest of the cluster (default \"http://localhost:2380\")")
    String initialAdvertisePeerUrls = "http://localhost:2380";

    @Option(names = "--skip-hash-check", arity = "0..1", fallbackValue = "true", paramLabel = "bool",
            description = "Ignore snapshot integrity hash value (required if copied from data directory)")
    boolean skipHashCheck;

    @Option(names = "--bump-revision", paramLabel = "uint", description = "How much to increase the latest revision after restore")
    String bumpRevision = "0";

    @Option(names = "--mark-compacted", arity = "0..1", fallbackValue = "true", paramLabel = "bool",
            description = "Mark the latest revision after restore as the point of scheduled compaction "
                    + "(required if --bump-revision > 0, disallowed otherwise)")
    boolean markCompacted;

    /**
     * etcdutl 3.6's bbolt mmap size for the restore. LMDB's map here grows on demand and the file's
     * size does not depend on it, so the value is checked (a uint64, as etcd parses it) and has no
     * further effect.
     */
    @Option(names = "--initial-memory-map-size", paramLabel = "uint",
            description = "Initial memory map size of the database in bytes. It uses the default value if not defined or defined to 0")
    String initialMemoryMapSize = "0";

    @Parameters(arity = "0..*", paramLabel = "<filename>", hidden = true)
    List<String> args = new ArrayList<>();

    SnapshotRestoreCommand(Context ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() throws DataDirException {
        if (args.size() != 1) {
            throw new CliException(ExitCodes.BAD_ARGS, "snapshot restore requires exactly one argument");
        }
        long bump = Flags.uint64("--bump-revision", bumpRevision);
        Flags.uint64("--initial-memory-map-size", initialMemoryMapSize);
        if ((bump == 0 && markCompacted) || (bump != 0 && !markCompacted)) {
            throw new CliException(ExitCodes.BAD_ARGS, "--mark-compacted required if --revision-bump > 0");
        }
        Path data = Path.of(dataDir.isEmpty() ? name + ".etcd" : dataDir);
        DataDirLayout layout = new DataDirLayout(data, walDir.isEmpty() ? null : Path.of(walDir));
        InitialCluster cluster = InitialCluster.parse(initialCluster, initialClusterToken, name, initialAdvertisePeerUrls);
        Path snapshot = Path.of(args.get(0));
        ConsoleLog log = ctx.log();
        log.info("restoring snapshot", "path", snapshot, "wal-dir", layout.walPath(), "data-dir", data,
                "snap-dir", layout.snapDir());
        try (RestoreProgressLine progress = new RestoreProgressLine(ctx.progressShown(), ctx.err())) {
            SnapshotRestore.restore(new RestoreConfig(snapshot, layout, cluster, skipHashCheck, bump, markCompacted),
                    progress);
        }
        if (bump > 0) {
            log.info("bumped revision and marked it compacted", "bump-amount", bump);
        }
        cluster.members().forEach(m -> log.info("added member", "cluster-id", Long.toHexString(cluster.clusterId()),
                "added-peer-id", Long.toHexString(m.getID()), "added-peer-peer-urls", m.getPeerURLsList()));
        log.info("restored snapshot", "path", snapshot, "wal-dir", layout.walPath(), "data-dir", data,
                "snap-dir", layout.snapDir());
        return ExitCodes.SUCCESS;
    }
}
