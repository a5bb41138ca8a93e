package io.etcdj.ctl.command;

import io.etcdj.ctl.cli.CtlCommand;
import io.etcdj.ctl.cli.UsageRenderer;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code version}: the etcdctl release this tool is compatible with, and its API version. */
@Command(name = "version", description = "Prints the version of etcdctl", customSynopsis = "etcdctl version [flags]")
public final class VersionCommand extends CtlCommand {

    @Parameters(arity = "0..*", hidden = true)
    List<String> ignored;

    @Override
    protected void run() {
        ctx.out().println("etcdctl version: " + UsageRenderer.VERSION);
        ctx.out().println("API version: " + UsageRenderer.API_VERSION);
    }
}
