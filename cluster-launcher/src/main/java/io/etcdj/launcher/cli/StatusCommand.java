package io.etcdj.launcher.cli;

import io.etcdj.api.etcdserverpb.StatusResponse;
import io.etcdj.cli.ExitCodes;
import io.etcdj.format.GoBytes;
import io.etcdj.launcher.client.ClientTls;
import io.etcdj.launcher.client.MemberCallException;
import io.etcdj.launcher.client.MemberClient;
import io.etcdj.launcher.supervisor.ClusterState;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.ParentCommand;

/**
 * {@code status}: one row per member with what the launcher knows (pid, state, faults) and what
 * the member says about itself through Maintenance.Status (ID, leadership, raft term and index,
 * database size).
 */
@Command(name = "status", mixinStandardHelpOptions = true,
        description = "Show each member: pid, state, client URL, and its own Maintenance.Status.")
final class StatusCommand implements Callable<Integer> {
    static final List<String> HEADERS = List.of("MEMBER", "PID", "STATE", "CLIENT URL", "ID", "IS LEADER",
            "RAFT TERM", "RAFT INDEX", "DB SIZE", "FAULTS");

    @ParentCommand LauncherCommand root;
    @Mixin ClusterOptions cluster;

    @Override
    public Integer call() {
        LauncherContext ctx = root.context();
        ClusterState state = cluster.runningState(ctx);
        Optional<ClientTls> tls = Optional.ofNullable(state.tls())
                .map(t -> new ClientTls(Path.of(t.caCert()), Path.of(t.clientCert()), Path.of(t.clientKey())));
        // members are asked in parallel, so a slow or paused one costs one timeout, not one each
        List<CompletableFuture<List<String>>> pending = state.members().stream()
                .map(m -> CompletableFuture.supplyAsync(() -> row(m, tls)))
                .toList();
        List<List<String>> rows = new ArrayList<>();
        pending.forEach(f -> rows.add(f.join()));
        TablePrinter.print(ctx.out(), HEADERS, rows);
        return ExitCodes.SUCCESS;
    }

    private static List<String> row(ClusterState.MemberState m, Optional<ClientTls> tls) {
        String url = m.clientUrls().get(0);
        String pid = m.pid() > 0 ? Long.toString(m.pid()) : "-";
        String faults = m.partitioned() ? "partitioned" : "";
        if (m.delayMillis() > 0) {
            faults = (faults.isEmpty() ? "" : faults + ", ") + "delay " + m.delayMillis() + "ms";
        }
        String id = "-";
        String leader = "-";
        String term = "-";
        String index = "-";
        String db = "-";
        String health = m.state();
        if ("running".equals(m.state())) {
            try (MemberClient c = new MemberClient(URI.create(url), tls, Duration.ofSeconds(5))) {
                StatusResponse s = c.status();
                long self = s.getHeader().getMemberId();
                id = String.format("%x", self);
                leader = Boolean.toString(s.getLeader() == self);
                term = Long.toString(s.getRaftTerm());
                index = Long.toString(s.getRaftIndex());
                db = GoBytes.format(s.getDbSize());
                if (s.getIsLearner()) {
                    health = "running (learner)";
                }
            } catch (MemberCallException e) {
                health = "unreachable";
            }
        }
        return List.of(m.process(), pid, health, url, id, leader, term, index, db, faults);
    }
}
