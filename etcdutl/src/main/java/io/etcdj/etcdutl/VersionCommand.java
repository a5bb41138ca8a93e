package io.etcdj.etcdutl;

import io.etcdj.cli.ExitCodes;
import io.etcdj.server.version.Versions;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "version", description = "Prints the version of etcdutl", customSynopsis = "etcdutl version [flags]")
final class VersionCommand implements Callable<Integer> {
    private final Context ctx;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "help for version")
    boolean help;

    VersionCommand(Context ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() {
        ctx.out().println("etcdutl version: " + Versions.SERVER);
        ctx.out().println("API version: " + Versions.SERVER.substring(0, Versions.SERVER.lastIndexOf('.')));
        return ExitCodes.SUCCESS;
    }
}
