package io.etcdj.ctl.command;

import io.etcdj.api.etcdserverpb.CompactionRequest;
import io.etcdj.cli.CliException;
import io.etcdj.cli.GoValues;
import io.etcdj.ctl.cli.CtlCommand;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code compaction rev}: compacts history up to a revision. */
@Command(name = "compaction", description = "Compacts the event history in etcd",
        customSynopsis = "etcdctl compaction [options] <revision> [flags]")
public final class CompactionCommand extends CtlCommand {

    @Option(names = "--physical", arity = "0..1",
            description = "'true' to wait for compaction to physically remove all old revisions")
    boolean physical;

    @Parameters(arity = "0..*")
    List<String> args;

    @Override
    protected void run() {
        String arg = onlyArg(args, "compaction command needs 1 argument");
        long rev;
        try {
            rev = GoValues.parseInt(arg, 10);
        } catch (IllegalArgumentException e) {
            throw CliException.error(e.getMessage());
        }
        CompactionRequest req = CompactionRequest.newBuilder().setRevision(rev).setPhysical(physical).build();
        ctx.client().kv(s -> s.compact(req));
        ctx.out().println("compacted revision " + rev);
    }
}
