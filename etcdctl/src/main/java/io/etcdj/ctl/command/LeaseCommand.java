package io.etcdj.ctl.command;

import io.etcdj.api.etcdserverpb.LeaseGrantRequest;
import io.etcdj.api.etcdserverpb.LeaseKeepAliveResponse;
import io.etcdj.api.etcdserverpb.LeaseLeasesRequest;
import io.etcdj.api.etcdserverpb.LeaseRevokeRequest;
import io.etcdj.api.etcdserverpb.LeaseTimeToLiveRequest;
import io.etcdj.cli.CliException;
import io.etcdj.cli.ExitCodes;
import io.etcdj.cli.GoValues;
import io.etcdj.client.EtcdClientException;
import io.etcdj.ctl.cli.CtlCommand;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code lease grant|revoke|timetolive|list|keep-alive}. */
@Command(name = "lease", description = "Lease related commands", customSynopsis = "etcdctl lease <subcommand> [flags]",
        subcommands = {LeaseCommand.Grant.class, LeaseCommand.Revoke.class, LeaseCommand.TimeToLive.class,
            LeaseCommand.ListLeases.class, LeaseCommand.KeepAlive.class})
public final class LeaseCommand {

    /** {@code lease grant ttl}. */
    @Command(name = "grant", description = "Creates leases", customSynopsis = "etcdctl lease grant <ttl> [flags]")
    public static final class Grant extends CtlCommand {
        @Parameters(arity = "0..*")
        List<String> args;

        @Override
        protected void run() {
            String arg = onlyArg(args, "lease grant command needs TTL argument");
            long ttl;
            try {
                ttl = GoValues.parseInt(arg, 10);
            } catch (IllegalArgumentException e) {
                throw CliException.badArgs("bad TTL (" + e.getMessage() + ")");
            }
            ctx.checkFormat();
            LeaseGrantRequest req = LeaseGrantRequest.newBuilder().setTTL(ttl).build();
            try {
                var resp = ctx.client().lease(s -> s.leaseGrant(req));
                ctx.printer().grant(resp);
            } catch (EtcdClientException e) {
                throw CliException.error("failed to grant lease (" + e.getMessage() + ")");
            }
        }
    }

    /** {@code lease revoke id}. */
    @Command(name = "revoke", description = "Revokes leases", customSynopsis = "etcdctl lease revoke <leaseID> [flags]")
    public static final class Revoke extends CtlCommand {
        @Parameters(arity = "0..*")
        List<String> args;

        @Override
        protected void run() {
            String arg = onlyArg(args, "lease revoke command needs 1 argument");
            long id = Args.leaseArg(arg);
            ctx.checkFormat();
            LeaseRevokeRequest req = LeaseRevokeRequest.newBuilder().setID(id).build();
            try {
                var resp = ctx.client().lease(s -> s.leaseRevoke(req));
                ctx.printer().revoke(id, resp);
            } catch (EtcdClientException e) {
                throw CliException.error("failed to revoke lease (" + e.getMessage() + ")");
            }
        }
    }

    /** {@code lease timetolive id [--keys]}. */
    @Command(name = "timetolive", description = "Get lease information",
            customSynopsis = "etcdctl lease timetolive <leaseID> [options] [flags]")
    public static final class TimeToLive extends CtlCommand {
        @Option(names = "--keys", arity = "0..1", description = "Get keys attached to this lease")
        boolean keys;

        @Parameters(arity = "0..*")
        List<String> args;

        @Override
        protected void run() {
            String arg = onlyArg(args, "lease timetolive command needs lease ID as argument");
            long id = Args.leaseArg(arg);
            ctx.checkFormat();
            LeaseTimeToLiveRequest req = LeaseTimeToLiveRequest.newBuilder().setID(id).setKeys(keys).build();
            var resp = ctx.client().lease(s -> s.leaseTimeToLive(req));
            ctx.printer().timeToLive(resp, keys);
        }
    }

    /** {@code lease list}. */
    @Command(name = "list", description = "List all active leases", customSynopsis = "etcdctl lease list [flags]")
    public static final class ListLeases extends CtlCommand {
        @Parameters(arity = "0..*", hidden = true)
        List<String> ignored;

        @Override
        protected void run() {
            ctx.checkFormat();
            var resp = ctx.client().lease(s -> s.leaseLeases(LeaseLeasesRequest.getDefaultInstance()));
            ctx.printer().leases(resp);
        }
    }

    /** {@code lease keep-alive id [--once]}: renews until interrupted or the lease is gone. */
    @Command(name = "keep-alive", description = "Keeps leases alive (renew)",
            customSynopsis = "etcdctl lease keep-alive [options] <leaseID> [flags]")
    public static final class KeepAlive extends CtlCommand {
        @Option(names = "--once", arity = "0..1", description = "Resets the keep-alive time to its original value and exits immediately")
        boolean once;

        @Parameters(arity = "0..*")
        List<String> args;

        @Override
        protected void run() {
            String arg = onlyArg(args, "lease keep-alive command needs lease ID as argument");
            long id = Args.leaseArg(arg);
            ctx.checkFormat();
            LeaseKeepAlive stream = new LeaseKeepAlive(ctx.client(), id);
            try {
                if (once) {
                    LeaseKeepAliveResponse resp = stream.renewOnce(ctx.options().commandTimeout());
                    if (resp.getTTL() <= 0) {
                        throw new CliException(ExitCodes.BAD_CONNECTION, "etcdserver: requested lease not found");
                    }
                    ctx.printer().keepAlive(resp);
                    return;
                }
                stream.renewForever(resp -> ctx.printer().keepAlive(resp));
                ctx.out().println(String.format("lease %016x expired or revoked.", id));
            } finally {
                stream.close();
            }
        }
    }
}
