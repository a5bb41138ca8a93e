package io.etcdj.robustness;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.HashKVRequest;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.api.etcdserverpb.RangeResponse;
import io.etcdj.robustness.Op.Kind;
import io.etcdj.robustness.Op.Outcome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * One run: start a fresh cluster, run the workload while faults are injected, recover, then check
 * the history (linearizability per key), every acknowledged write on every member at its
 * revision, members agreeing on values, revisions and history hash, revisions never going back
 * for a client, and never two leaders in one term. A failing run keeps its directory (history,
 * violations, member logs).
 */
final class RobustnessRun {
    /** What a run is asked to do. */
    record Config(Cluster.Server server, Path projectRoot, Path dir, int seconds, long seed, int clients,
                  List<Faults.Kind> faults, boolean staleReadControl, boolean namespaces) {
    }

    /** What a run found. */
    record Report(Path dir, long seed, List<String> faults, int operations, int acknowledged, int unknown,
                  double opsPerSecond, int terms, List<String> violations, String linearizability) {
        boolean passed() {
            return violations.isEmpty();
        }

        String summary() {
            return String.format("seed %d: %s; %d ops (%d acknowledged, %d unknown), %.0f ops/s, %d terms; faults: %s%s",
                    seed, passed() ? "PASS" : "FAIL", operations, acknowledged, unknown, opsPerSecond, terms,
                    faults.isEmpty() ? "none" : String.join(", ", faults),
                    passed() ? "" : "\n  " + String.join("\n  ", violations) + "\n  kept in " + dir);
        }
    }

    private static final List<String> KEYS = List.of("r/k0", "r/k1", "r/k2");

    private RobustnessRun() {
    }

    static Report run(Config cfg) throws Exception {
        Files.createDirectories(cfg.dir());
        List<String> violations = new ArrayList<>();
        List<Op> history;
        Faults faults;
        LeaderWatch leaders;
        Workload workload;
        long started;
        long ended;
        try (Cluster cluster = Cluster.start(cfg.server(), cfg.dir(), cfg.projectRoot(), 3, cfg.namespaces())) {
            List<String> stale = new ArrayList<>();
            if (cfg.staleReadControl()) {
                stale.add("m1");
            }
            workload = new Workload(cluster, KEYS, cfg.clients(), cfg.seed(), stale);
            leaders = new LeaderWatch(cluster);
            faults = new Faults(cluster, cfg.seed(), cfg.faults());
            leaders.start();
            started = System.nanoTime();
            List<Thread> clients = workload.start();
            long end = started + TimeUnit.SECONDS.toNanos(cfg.seconds());
            if (cfg.staleReadControl()) {
                // the negative control: m1 cut off while its clients read locally
                Thread.sleep(1000);
                cluster.network().isolate(cluster.member("m1"));
                Thread.sleep(Math.max(1000, TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime()) - 2000));
                cluster.recover();
                faults.injected.add("isolate m1 (its clients read serializably)");
            } else {
                faults.run(end);
            }
            while (System.nanoTime() < end) {
                Thread.sleep(100);
            }
            workload.stop();
            for (Thread t : clients) {
                t.join(TimeUnit.MILLISECONDS.toMillis(3 * Workload.OP_TIMEOUT_MILLIS));
            }
            ended = System.nanoTime();
            cluster.recover();
            cluster.awaitLeader(60);
            settle(cluster, violations);
            workload.finalReads();
            leaders.stop();
            history = workload.history();
            violations.addAll(leaders.violations);
            violations.addAll(workload.revisionViolations);
            checkAcknowledgedWrites(cluster, history, violations);
            checkMembersAgree(cluster, violations);
            if (!violations.isEmpty()) {
                Files.writeString(cfg.dir().resolve("logs-tail.txt"), cluster.logTails(80));
            }
        }
        Linearizability.Result lin = new Linearizability(TimeUnit.SECONDS.toNanos(60)).check(history);
        if (!lin.linearizable()) {
            violations.add(lin.explanation());
        } else if (!lin.complete()) {
            violations.add(lin.explanation());
        }
        int acked = (int) history.stream().filter(o -> o.kind() != Kind.READ && o.outcome() != Outcome.UNKNOWN).count();
        int unknown = (int) history.stream().filter(o -> o.outcome() == Outcome.UNKNOWN).count();
        double seconds = (ended - started) / 1e9;
        Report report = new Report(cfg.dir(), cfg.seed(), List.copyOf(faults.injected), history.size(), acked, unknown,
                history.size() / seconds, leaders.terms(), violations, lin.explanation());
        writeHistory(cfg.dir(), history, report);
        if (report.passed()) {
            deleteTree(cfg.dir());
        }
        return report;
    }

    /** Waits until every member has applied a write made after the faults. */
    static void settle(Cluster cluster, List<String> violations) throws InterruptedException {
        MemberProcess leader = cluster.awaitLeader(60);
        long rev = 0;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (rev == 0 && System.nanoTime() < deadline) {
            try {
                rev = cluster.kv(leader, 5000).put(PutRequest.newBuilder().setKey(ByteString.copyFromUtf8("r/settle"))
                        .setValue(ByteString.copyFromUtf8("x")).build()).getHeader().getRevision();
            } catch (RuntimeException e) {
                Thread.sleep(200);
                leader = cluster.awaitLeader(60);
            }
        }
        for (MemberProcess m : cluster.members()) {
            cluster.reconnect(m);
            long seen = -1;
            while (System.nanoTime() < deadline) {
                try {
                    seen = cluster.kv(m, 2000).range(RangeRequest.newBuilder().setKey(ByteString.copyFromUtf8("r/settle"))
                            .setSerializable(true).build()).getHeader().getRevision();
                    if (seen >= rev) {
                        break;
                    }
                } catch (RuntimeException e) {
                    cluster.reconnect(m);
                }
                Thread.sleep(200);
            }
            if (seen < rev) {
                violations.add(m.name + " did not catch up after the faults: at revision " + seen + ", cluster at " + rev);
            }
        }
    }

    /** Every acknowledged write is on every member, with the value and revision it was acknowledged with. */
    private static void checkAcknowledgedWrites(Cluster cluster, List<Op> history, List<String> violations) {
        for (MemberProcess m : cluster.members()) {
            int missing = 0;
            for (Op op : history) {
                if (op.kind() == Kind.READ || op.outcome() != Outcome.OK) {
                    continue;
                }
                RangeResponse r;
                try {
                    r = cluster.kv(m, 5000).range(RangeRequest.newBuilder().setKey(ByteString.copyFromUtf8(op.key()))
                            .setRevision(op.revision()).setSerializable(true).build());
                } catch (RuntimeException e) {
                    violations.add(m.name + ": cannot read " + op.key() + " at revision " + op.revision() + ": " + e.getMessage());
                    return;
                }
                boolean ok = r.getCount() == 1 && r.getKvs(0).getValue().toStringUtf8().equals(op.value())
                        && r.getKvs(0).getModRevision() == op.revision();
                if (!ok && missing++ < 5) {
                    violations.add(m.name + ": acknowledged write lost or changed: " + op + "; member has "
                            + (r.getCount() == 0 ? "nothing" : r.getKvs(0).getValue().toStringUtf8() + "@" + r.getKvs(0).getModRevision()));
                }
            }
            if (missing > 5) {
                violations.add(m.name + ": " + missing + " acknowledged writes lost or changed in all");
            }
        }
    }

    /** Members agree on every key's value and revision and on the history hash. */
    static void checkMembersAgree(Cluster cluster, List<String> violations) {
        String first = null;
        long hash = 0;
        long rev = 0;
        for (MemberProcess m : cluster.members()) {
            try {
                RangeResponse all = cluster.kv(m, 5000).range(RangeRequest.newBuilder().setKey(ByteString.copyFromUtf8("r/"))
                        .setRangeEnd(ByteString.copyFromUtf8("r0")).setSerializable(true).build());
                StringBuilder sb = new StringBuilder();
                all.getKvsList().forEach(kv -> sb.append(kv.getKey().toStringUtf8()).append('=')
                        .append(kv.getValue().toStringUtf8()).append('@').append(kv.getModRevision()).append(' '));
                if (first == null) {
                    first = sb.toString();
                    rev = all.getHeader().getRevision();
                    hash = cluster.maintenance(m, 10000).hashKV(HashKVRequest.newBuilder().setRevision(rev).build()).getHash();
                } else {
                    if (!first.equals(sb.toString())) {
                        violations.add("members disagree: m1 has " + first + "but " + m.name + " has " + sb);
                    }
                    long h = cluster.maintenance(m, 10000).hashKV(HashKVRequest.newBuilder().setRevision(rev).build()).getHash();
                    if (h != hash) {
                        violations.add(m.name + "'s history hash at revision " + rev + " differs from m1's");
                    }
                }
            } catch (RuntimeException e) {
                violations.add(m.name + ": cannot compare state: " + e.getMessage());
            }
        }
    }

    private static void writeHistory(Path dir, List<Op> history, Report report) throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add("# " + report.summary().replace("\n", "\n# "));
        history.stream().sorted(Comparator.comparingLong(Op::invokeNanos)).forEach(o -> lines.add(o.toString()));
        Files.write(dir.resolve("history.txt"), lines);
        if (!report.passed()) {
            Files.write(dir.resolve("violations.txt"), report.violations());
        }
    }

    static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
