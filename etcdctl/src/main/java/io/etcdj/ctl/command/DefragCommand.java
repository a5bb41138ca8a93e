package io.etcdj.ctl.command;

import io.etcdj.api.etcdserverpb.DefragmentRequest;
import io.etcdj.cli.CliException;
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

    @Override
    protected void run() {
        boolean failed = false;
        for (String ep : ClusterEndpoints.resolve(ctx, cluster)) {
            try (EtcdClient c = ctx.newClient(List.of(ep))) {
                c.maintenance(s -> s.defragment(DefragmentRequest.getDefaultInstance()));
                ctx.out().println("Finished defragmenting etcd member[" + ep + "]");
            } catch (EtcdClientException e) {
                ctx.err().println("Failed to defragment etcd member[" + ep + "] (" + e.getMessage() + ")");
                failed = true;
            }
        }
        if (failed) {
            throw CliException.error(null);
        }
    }
}
