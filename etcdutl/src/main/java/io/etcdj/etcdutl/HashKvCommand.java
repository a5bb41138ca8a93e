package io.etcdj.etcdutl;

import io.etcdj.cli.CliException;
import io.etcdj.cli.ExitCodes;
import io.etcdj.server.datadir.DataDirException;
import io.etcdj.server.datadir.DataDirLayout;
import io.etcdj.server.datadir.KvHash;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "hashkv", description = "Prints the KV history hash of a given file",
        customSynopsis = "etcdutl hashkv <filename> [flags]")
final class HashKvCommand implements Callable<Integer> {
    private final Context ctx;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "help for hashkv")
    boolean help;

    @Option(names = "--rev", paramLabel = "int", description = "maximum revision to hash (default: latest revision)")
    String rev = "0";

    @Option(names = "--data-dir", paramLabel = "string",
            description = "Hash the backend of this (stopped) member's data directory instead of a file")
    String dataDir = "";

    @Parameters(arity = "0..*", paramLabel = "<filename>", hidden = true)
    List<String> args = new ArrayList<>();

    HashKvCommand(Context ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() throws DataDirException {
        int expected = dataDir.isEmpty() ? 1 : 0;
        if (args.size() != expected) {
            throw new CliException(ExitCodes.ERROR, "accepts " + expected + " arg(s), received " + args.size());
        }
        long revision = Flags.int64("--rev", rev);
        Path file = dataDir.isEmpty() ? Path.of(args.get(0)) : DataDirLayout.of(Path.of(dataDir)).backendFile();
        ctx.printer().print(KvHash.of(file, revision));
        return ExitCodes.SUCCESS;
    }
}
