package io.etcdj.robustness;

import io.etcdj.cli.GoDuration;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * The soak runner: runs after runs against our server or the real etcd until a count or a
 * duration is reached, prints each run's verdict and a summary, and exits 1 if any run failed.
 *
 * <pre>
 *   bin/run-module robustness io.etcdj.robustness.Robustness --server ours --duration 30m
 *   options: --server ours|etcd  --runs N | --duration 30m|2h  --run-seconds 20  --seed S
 *            --clients 10  --faults kill_leader,kill_random,pause_random,isolate_random,isolate_leader,cut_link,slow_links
 *            --dir DIR (where failing runs are kept; default: a new temp dir)
 *            --netns true (members on network namespaces of their own; needs root and iproute2)
 *   bin/run-module robustness io.etcdj.robustness.Robustness --check DIR/history.txt   (check a kept history again)
 * </pre>
 */
public final class Robustness {
    private Robustness() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = new TreeMap<>();
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                System.err.println("usage: Robustness [--server ours|etcd] [--runs N | --duration 30m] [--run-seconds S]"
                        + " [--seed S] [--clients N] [--faults a,b] [--dir DIR]");
                System.exit(2);
            }
            opts.put(args[i].substring(2), args[++i]);
        }
        if (opts.containsKey("check")) {
            // check a kept history again: --check DIR/history.txt
            Linearizability.Result r = new Linearizability(TimeUnit.MINUTES.toNanos(10))
                    .check(HistoryFile.read(Path.of(opts.get("check"))));
            System.out.println(r.explanation());
            System.exit(r.linearizable() && r.complete() ? 0 : 1);
        }
        Cluster.Server server = Cluster.Server.parse(opts.getOrDefault("server", "ours"));
        int runs = Integer.parseInt(opts.getOrDefault("runs", "0"));
        Duration duration = opts.containsKey("duration") ? GoDuration.parse(opts.get("duration")) : null;
        if (runs == 0 && duration == null) {
            runs = 3;
        }
        int seconds = Integer.parseInt(opts.getOrDefault("run-seconds", "20"));
        long seed = Long.parseLong(opts.getOrDefault("seed", Long.toString(System.currentTimeMillis() % 100000)));
        int clients = Integer.parseInt(opts.getOrDefault("clients", "10"));
        List<Faults.Kind> faults = opts.containsKey("faults")
                ? Arrays.stream(opts.get("faults").split(",")).map(s -> Faults.Kind.valueOf(s.trim().toUpperCase())).toList()
                : List.of(Faults.Kind.values());
        Path dir = opts.containsKey("dir") ? Path.of(opts.get("dir")) : Files.createTempDirectory("robustness-");
        boolean namespaces = Boolean.parseBoolean(opts.getOrDefault("netns", "false"));
        Path root = Path.of(System.getProperty("robustness.projectRoot", ".")).toAbsolutePath().normalize();

        long deadline = duration == null ? Long.MAX_VALUE : System.nanoTime() + duration.toNanos();
        List<RobustnessRun.Report> reports = new ArrayList<>();
        for (int i = 0; (runs == 0 || i < runs) && System.nanoTime() < deadline; i++) {
            RobustnessRun.Report r = RobustnessRun.run(new RobustnessRun.Config(server, root,
                    dir.resolve("run-" + (seed + i)), seconds, seed + i, clients, faults, false, namespaces));
            reports.add(r);
            System.out.println("run " + (i + 1) + ", " + r.summary());
        }
        System.out.println(summary(server, reports));
        System.exit(reports.stream().allMatch(RobustnessRun.Report::passed) ? 0 : 1);
    }

    static String summary(Cluster.Server server, List<RobustnessRun.Report> reports) {
        long failed = reports.stream().filter(r -> !r.passed()).count();
        long ops = reports.stream().mapToLong(RobustnessRun.Report::operations).sum();
        long unknown = reports.stream().mapToLong(RobustnessRun.Report::unknown).sum();
        double rate = reports.stream().mapToDouble(RobustnessRun.Report::opsPerSecond).average().orElse(0);
        long faults = reports.stream().mapToLong(r -> r.faults().size()).sum();
        Map<String, Integer> mix = new TreeMap<>();
        for (RobustnessRun.Report r : reports) {
            for (String f : r.faults()) {
                for (String part : f.split(" \\+ ")) {
                    mix.merge(part.split(" ")[0], 1, Integer::sum);
                }
            }
        }
        return String.format("%s: %d runs, %d passed, %d failed; %d operations (%d unknown), %.0f ops/s per run;"
                + " %d fault windows %s", server.name().toLowerCase(), reports.size(), reports.size() - failed, failed,
                ops, unknown, rate, faults, mix);
    }

}
