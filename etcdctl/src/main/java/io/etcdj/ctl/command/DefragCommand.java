package io.etcdj.ctl.command;

import io.etcdj.api.etcdserverpb.DefragmentRequest;
import io.etcdj.cli.CliException;
import io.etcdj.cli.progress.ProgressLine;
import io.etcdj.client.EtcdClient;
import io.etcdj.client.EtcdClientException;
import io.etcdj.ctl.cli.CtlCommand;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code defrag [--cluster]}: defragments each endpoint in turn. */
@Command(name = "defrag", description = "Defragments the storage of the etcd members with given endpoints",
        customSynopsis = "etcdctl defrag [flags]")
public final class DefragCommand extends CtlCommand {

    @Option(names = "--cluster", arity = "0..1", description = "use all endpoints from the cluster member list")
    boolean cluster;

    @Parameters(arity = "0..*", hidden = true)
    List<String> ignored;

    /** At a terminal the progress line needs the process's own stderr. */
    @Override
    public boolean needsOwnProcess(boolean terminal) {
        return terminal;
    }

    @Override
    protected void run() {
        boolean failed = false;
        List<String> eps = ClusterEndpoints.resolve(ctx, cluster);
        // beyond etcd: at a terminal, members done of all, rate and ETA on stderr
        try (ProgressLine progress = CommandProgress.line(ctx, "defrag", ProgressLine.Unit.COUNT, "members")) {
            for (int i = 0; i < eps.size(); i++) {
                progress.update(i, eps.size());
                String ep = eps.get(i);
                try (EtcdClient c = ctx.newClient(List.of(ep))) {
                    c.maintenance(s -> s.defragment(DefragmentRequest.getDefaultInstance()));
                    progress.clear();
                    ctx.out().println("Finished defragmenting etcd member[" + ep + "]");
                } catch (EtcdClientException e) {
                    progress.clear();
                    ctx.err().println("Failed to defragment etcd member[" + ep + "] (" + e.getMessage() + ")");
                    failed = true;
                }
            }
        }
        if (failed) {
            throw CliException.error(null);
        }
    }
}
