package io.etcdj.etcdutl;

import io.etcdj.cli.CliException;
import io.etcdj.cli.ExitCodes;
import io.etcdj.format.GoBytes;
import io.etcdj.server.datadir.DataDirException;
import io.etcdj.server.datadir.EtcdExport;
import io.etcdj.server.datadir.SnapshotStatus;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Not an etcd command: writes our snapshot (or a stopped member's data) as a real etcd's
 * snapshot file, for {@code etcdctl snapshot restore} of etcd 3.4 and later. The way back from
 * etcdj to etcd; the way in needs no command of its own (restore reads etcd's files).
 */
@Command(name = "export", description = "Writes a snapshot or a stopped member's data dir as a snapshot file of another format",
        customSynopsis = "etcdutl snapshot export <source> <output> [--format etcd] [flags]",
        footer = {"", "<source> is a snapshot file (as 'etcdctl snapshot save' writes it), a member's backend file "
                + "(member/snap/db) or a stopped member's data dir.",
            "With --format etcd, <output> is the file a real etcd's 'etcdctl snapshot save' writes (bbolt with its SHA-256): "
                + "restore it with etcd's 'etcdctl snapshot restore' or 'etcdutl snapshot restore'."})
final class SnapshotExportCommand implements Callable<Integer> {
    private final Context ctx;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "help for export")
    boolean help;

    @Option(names = "--format", paramLabel = "string", description = "Format of the output file: etcd (default \"etcd\")")
    String format = "etcd";

    @Option(names = "--skip-hash-check", arity = "0..1", fallbackValue = "true", paramLabel = "bool",
            description = "Ignore the source snapshot's integrity hash value")
    boolean skipHashCheck;

    @Parameters(arity = "0..*", paramLabel = "<source> <output>", hidden = true)
    List<String> args = new ArrayList<>();

    SnapshotExportCommand(Context ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() throws DataDirException {
        if (args.size() != 2) {
            throw new CliException(ExitCodes.BAD_ARGS, "snapshot export requires exactly two arguments: <source> <output>");
        }
        if (!format.equals("etcd")) {
            throw new CliException(ExitCodes.BAD_ARGS, "unsupported --format \"" + format + "\" (supported: etcd)");
        }
        Path source = Path.of(args.get(0));
        Path output = Path.of(args.get(1));
        ConsoleLog log = ctx.log();
        log.info("exporting snapshot", "source", source, "output", output, "format", format);
        SnapshotStatus status = EtcdExport.export(source, output, skipHashCheck);
        log.info("exported snapshot", "output", output, "revision", status.revision(), "total-keys", status.totalKeys(),
                "size", GoBytes.format(status.totalSize()));
        ctx.out().println("Snapshot exported at " + output);
        return ExitCodes.SUCCESS;
    }
}
