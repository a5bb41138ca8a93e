package io.etcdj.ctl.command;

import io.etcdj.api.etcdserverpb.HashKVRequest;
import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.api.etcdserverpb.StatusRequest;
import io.etcdj.cli.CliException;
import io.etcdj.cli.ExitCodes;
import io.etcdj.cli.GoDuration;
import io.etcdj.client.EtcdClient;
import io.etcdj.client.EtcdClientException;
import io.etcdj.ctl.cli.CtlCommand;
import io.etcdj.ctl.printer.EndpointHashKV;
import io.etcdj.ctl.printer.EndpointHealth;
import io.etcdj.ctl.printer.EndpointStatus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code endpoint health|status|hashkv [--cluster]}: one client per endpoint. */
@Command(name = "endpoint", description = "Endpoint related commands",
        customSynopsis = "etcdctl endpoint <subcommand> [flags]",
        subcommands = {EndpointCommand.Health.class, EndpointCommand.Status.class, EndpointCommand.HashKV.class})
public final class EndpointCommand {

    /** {@code endpoint health}: a linearizable read of a missing key must succeed. */
    @Command(name = "health", description = "Checks the healthiness of endpoints specified in `--endpoints` flag",
            customSynopsis = "etcdctl endpoint health [flags]")
    public static final class Health extends CtlCommand {
        @Option(names = "--cluster", arity = "0..1", description = "use all endpoints from the cluster member list")
        boolean cluster;

        @Parameters(arity = "0..*", hidden = true)
        List<String> ignored;

        @Override
        protected void run() {
            ctx.checkFormat();
            List<EndpointHealth> results = new ArrayList<>();
            boolean allHealthy = true;
            for (String ep : ClusterEndpoints.resolve(ctx, cluster)) {
                long start = System.nanoTime();
                String error = "";
                try (EtcdClient c = ctx.newClient(List.of(ep))) {
                    c.kv(s -> s.range(RangeRequest.newBuilder().setKey(Args.bytes("health")).build()));
                } catch (EtcdClientException e) {
                    if (!e.getMessage().equals("etcdserver: permission denied")) {
                        error = e.getMessage();
                    }
                } catch (CliException e) {
                    error = e.getMessage();
                }
                String took = GoDuration.format(Duration.ofNanos(System.nanoTime() - start));
                allHealthy &= error.isEmpty();
                results.add(new EndpointHealth(ep, error.isEmpty(), took, error));
            }
            ctx.printer().endpointHealth(results);
            if (!allHealthy) {
                throw new CliException(ExitCodes.ERROR, "unhealthy cluster");
            }
        }
    }

    /** {@code endpoint status}. */
    @Command(name = "status", description = "Prints out the status of endpoints specified in `--endpoints` flag",
            customSynopsis = "etcdctl endpoint status [flags]",
            header = {"When --write-out is set to simple, this command prints out comma-separated status lists for each endpoint.",
                "The items in the lists are endpoint, ID, version, db size, is leader, is learner, "
                    + "raft term, raft index, raft applied index, errors."})
    public static final class Status extends CtlCommand {
        @Option(names = "--cluster", arity = "0..1", description = "use all endpoints from the cluster member list")
        boolean cluster;

        @Parameters(arity = "0..*", hidden = true)
        List<String> ignored;

        @Override
        protected void run() {
            ctx.checkFormat();
            List<EndpointStatus> results = new ArrayList<>();
            for (String ep : ClusterEndpoints.resolve(ctx, cluster)) {
                try (EtcdClient c = ctx.newClient(List.of(ep))) {
                    results.add(new EndpointStatus(ep, c.maintenance(s -> s.status(StatusRequest.getDefaultInstance()))));
                } catch (EtcdClientException e) {
                    ctx.err().println("Failed to get the status of endpoint " + ep + " (" + e.getMessage() + ")");
                }
            }
            ctx.printer().endpointStatus(results);
        }
    }

    /** {@code endpoint hashkv [--rev]}. */
    @Command(name = "hashkv", description = "Prints the KV history hash for each endpoint in --endpoints",
            customSynopsis = "etcdctl endpoint hashkv [flags]")
    public static final class HashKV extends CtlCommand {
        @Option(names = "--cluster", arity = "0..1", description = "use all endpoints from the cluster member list")
        boolean cluster;

        @Option(names = "--rev", defaultValue = "0", description = "maximum revision to hash (default: all revisions)")
        long rev;

        @Parameters(arity = "0..*", hidden = true)
        List<String> ignored;

        @Override
        protected void run() {
            ctx.checkFormat();
            List<EndpointHashKV> results = new ArrayList<>();
            for (String ep : ClusterEndpoints.resolve(ctx, cluster)) {
                try (EtcdClient c = ctx.newClient(List.of(ep))) {
                    results.add(new EndpointHashKV(ep,
                            c.maintenance(s -> s.hashKV(HashKVRequest.newBuilder().setRevision(rev).build()))));
                } catch (EtcdClientException e) {
                    ctx.err().println("Failed to get the hash of endpoint " + ep + " (" + e.getMessage() + ")");
                }
            }
            ctx.printer().endpointHashKV(results);
        }
    }
}
