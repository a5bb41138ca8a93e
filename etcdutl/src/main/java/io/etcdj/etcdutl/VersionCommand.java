package io.etcdj.etcdutl;

import io.etcdj.server.EtcdServer;
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
        ctx.out().println("etcdutl version: " + EtcdServer.VERSION);
        ctx.out().println("API version: " + EtcdServer.VERSION.substring(0, EtcdServer.VERSION.lastIndexOf('.')));
        return ExitCodes.SUCCESS;
    }
}
