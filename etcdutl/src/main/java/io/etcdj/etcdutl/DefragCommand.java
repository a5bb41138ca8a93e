package io.etcdj.etcdutl;

import io.etcdj.cli.CliException;
import io.etcdj.cli.ExitCodes;
import io.etcdj.format.GoBytes;
import io.etcdj.server.datadir.DataDirException;
import io.etcdj.server.datadir.Defragmenter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "defrag", description = "Defragments the storage of the etcd", customSynopsis = "etcdutl defrag [flags]")
final class DefragCommand implements Callable<Integer> {
    private final Context ctx;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "help for defrag")
    boolean help;

    @Option(names = "--data-dir", paramLabel = "string",
            description = "Required. Defragments a data directory not in use by etcd.")
    String dataDir = "";

    DefragCommand(Context ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() {
        if (dataDir.isEmpty()) {
            throw new CliException(ExitCodes.ERROR, "required flag(s) \"data-dir\" not set");
        }
        Path dir = Path.of(dataDir);
        try {
            if (!Files.isDirectory(dir)) {
                throw new DataDirException("stat " + dir + ": no such file or directory");
            }
            ConsoleLog log = ctx.log();
            log.info("defragmenting", "path", dir.resolve("member").resolve("snap").resolve("db"));
            long start = System.nanoTime();
            Defragmenter.Result r = Defragmenter.defragment(dir);
            log.info("finished defragmenting directory", "path", r.file(),
                    "current-db-size-bytes-diff", r.sizeAfter() - r.sizeBefore(),
                    "current-db-size-bytes", r.sizeAfter(), "current-db-size", GoBytes.format(r.sizeAfter()),
                    "took", String.format("%.3fms", (System.nanoTime() - start) / 1e6));
            return ExitCodes.SUCCESS;
        } catch (DataDirException e) {
            throw new CliException(ExitCodes.ERROR,
                    "Failed to defragment etcd data[" + dataDir + "] (" + e.getMessage() + ")");
        }
    }
}
