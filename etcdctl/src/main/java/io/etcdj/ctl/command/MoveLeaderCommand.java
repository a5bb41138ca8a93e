package io.etcdj.ctl.command;

import io.etcdj.api.etcdserverpb.MoveLeaderRequest;
import io.etcdj.api.etcdserverpb.StatusRequest;
import io.etcdj.api.etcdserverpb.StatusResponse;
import io.etcdj.cli.CliException;
import io.etcdj.client.EtcdClient;
import io.etcdj.client.EtcdClientException;
import io.etcdj.ctl.cli.CtlCommand;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code move-leader id}: finds the leader among the endpoints and asks it to hand over. */
@Command(name = "move-leader", description = "Transfers leadership to another etcd cluster member.",
        customSynopsis = "etcdctl move-leader <transferee-member-id> [flags]")
public final class MoveLeaderCommand extends CtlCommand {

    @Parameters(arity = "0..*")
    List<String> args;

    @Override
    protected void run() {
        String arg = onlyArg(args, "move-leader command needs 1 argument");
        long target;
        try {
            target = Args.parseUintHex(arg);
        } catch (IllegalArgumentException e) {
            throw CliException.badArgs(e.getMessage());
        }
        String leaderEndpoint = null;
        long leaderId = 0;
        for (String ep : ctx.endpoints()) {
            try (EtcdClient c = ctx.newClient(List.of(ep))) {
                StatusResponse s = c.maintenance(m -> m.status(StatusRequest.getDefaultInstance()));
                if (s.getLeader() == s.getHeader().getMemberId()) {
                    leaderEndpoint = ep;
                    leaderId = s.getLeader();
                    break;
                }
            } catch (EtcdClientException e) {
                // An unreachable endpoint cannot be the leader we talk to; try the next one.
            }
        }
        if (leaderEndpoint == null) {
            throw CliException.error("no leader endpoint given at " + ctx.endpoints());
        }
        try (EtcdClient c = ctx.newClient(List.of(leaderEndpoint))) {
            c.maintenance(m -> m.moveLeader(MoveLeaderRequest.newBuilder().setTargetID(target).build()));
        }
        ctx.out().println(String.format("Leadership transferred from %s to %s", Long.toHexString(leaderId),
                Long.toHexString(target)));
    }
}
