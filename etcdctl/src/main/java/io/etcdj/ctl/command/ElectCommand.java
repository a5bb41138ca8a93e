package io.etcdj.ctl.command;

import io.etcdj.api.mvccpb.KeyValue;
import io.etcdj.api.v3electionpb.CampaignRequest;
import io.etcdj.api.v3electionpb.CampaignResponse;
import io.etcdj.api.v3electionpb.LeaderRequest;
import io.etcdj.api.v3electionpb.LeaderResponse;
import io.etcdj.api.v3electionpb.ResignRequest;
import io.etcdj.cli.CliException;
import io.etcdj.cli.ExitCodes;
import io.etcdj.client.EtcdClientException;
import io.etcdj.ctl.cli.CtlCommand;
import io.etcdj.ctl.cli.Interruption;
import io.grpc.Context;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code elect name [proposal]}: campaigns and, once leader, prints the leader key and proposal and
 * holds leadership until interrupted; {@code -l} only observes and prints each new leader.
 */
@Command(name = "elect", description = "Observes and participates in leader election",
        customSynopsis = "etcdctl elect <election-name> [proposal] [flags]")
public final class ElectCommand extends CtlCommand {

    @Option(names = {"-l", "--listen"}, arity = "0..1", description = "observation mode")
    boolean listen;

    @Parameters(arity = "0..*")
    List<String> args;

    @Override
    public boolean takesInterrupt() {
        return true;
    }

    @Override
    protected void run() {
        List<String> a = orEmpty(args);
        if (a.size() != 1 && a.size() != 2) {
            throw CliException.badArgs("elect takes one election name argument and an optional proposal argument");
        }
        if (listen) {
            observe(a.get(0));
            return;
        }
        if (a.size() != 2) {
            throw CliException.badArgs("no proposal argument but -l not set");
        }
        try (Session session = Interruption.cancelledOnStop(() -> new Session(ctx.client(), 60))) {
            // a signal while campaigning cancels the campaign: etcdctl says "context canceled" and exits 1
            CampaignResponse won = Interruption.cancelledOnStop(() -> ctx.client().election(s -> s.campaign(
                    CampaignRequest.newBuilder().setName(Args.bytes(a.get(0))).setLease(session.leaseId())
                            .setValue(Args.bytes(a.get(1))).build())));
            ctx.out().println(won.getLeader().getKey().toStringUtf8());
            ctx.out().println(a.get(1));
            try {
                LockCommand.awaitInterrupt();
            } finally {
                ctx.client().election(s -> s.resign(ResignRequest.newBuilder().setLeader(won.getLeader()).build()));
            }
        }
    }

    private void observe(String name) {
        Context.CancellableContext call = Context.current().withCancellation();
        AtomicBoolean stopped = new AtomicBoolean();
        // Ctrl-C ends the observation and etcdctl exits 0
        try (AutoCloseable signals = Interruption.onStop(() -> {
            stopped.set(true);
            call.cancel(null);
        })) {
            call.run(() -> {
                Iterator<LeaderResponse> it = ctx.client().electionBlocking()
                        .observe(LeaderRequest.newBuilder().setName(Args.bytes(name)).build());
                while (it.hasNext()) {
                    KeyValue kv = it.next().getKv();
                    ctx.out().println(kv.getKey().toStringUtf8());
                    ctx.out().println(kv.getValue().toStringUtf8());
                }
            });
        } catch (StatusRuntimeException e) {
            if (stopped.get()) {
                return;
            }
            throw new CliException(ExitCodes.ERROR, EtcdClientException.from(Status.fromThrowable(e)).getMessage());
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception closing) {
            throw new IllegalStateException(closing);
        }
        if (stopped.get()) {
            return;
        }
        throw new CliException(ExitCodes.INTERRUPTED, "observe is canceled by the server");
    }
}
