package io.etcdj.etcdutl;

import io.etcdj.cli.CliException;
import io.etcdj.cli.ExitCodes;
import io.etcdj.server.datadir.DataDirException;
import io.etcdj.server.datadir.SnapshotStatus;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "status", description = "Gets backend snapshot status of a given file",
        customSynopsis = "etcdutl snapshot status <filename> [flags]",
        footer = {"", "When --write-out is set to simple, this command prints out comma-separated status lists for each endpoint.",
            "The items in the lists are hash, revision, total keys, total size, version."})
final class SnapshotStatusCommand implements Callable<Integer> {
    private final Context ctx;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "help for status")
    boolean help;

    @Parameters(arity = "0..*", paramLabel = "<filename>", hidden = true)
    List<String> args = new ArrayList<>();

    SnapshotStatusCommand(Context ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() throws DataDirException {
        if (args.size() != 1) {
            throw new CliException(ExitCodes.BAD_ARGS, "snapshot status requires exactly one argument");
        }
        ctx.printer().print(SnapshotStatus.of(Path.of(args.get(0))));
        return ExitCodes.SUCCESS;
    }
}
