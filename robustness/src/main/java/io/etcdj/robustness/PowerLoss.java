package io.etcdj.robustness;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The power-loss suite's runner (scripts/power-loss.sh): rounds of {@link PowerLossRound}, the
 * variants taken in turn, one line per round and, last, exactly one line
 * {@code N rounds, M would not start, K acknowledged writes lost}. Exits 0 only when every round
 * passed: M and K are 0 and no round found another fault (damaged backend, members disagreeing,
 * a history that is not linearizable), 1 otherwise, 2 on bad arguments.
 *
 * <pre>
 *   PowerLoss SERVER_BINARY [--members 1|3] [--rounds N] [--seed S] [--variant NAME[,NAME]] [--dir DIR] [-- server flags]
 * </pre>
 */
public final class PowerLoss {
    private PowerLoss() {
    }

    /** What a run of rounds is asked to do. */
    record Options(Path server, int members, int rounds, long seed, List<PowerLossVariant> variants, Path dir,
                   List<String> serverFlags) {
        static Options parse(String[] args) {
            Path server = null;
            int members = 1;
            int rounds = -1;
            long seed = System.currentTimeMillis() % 100000;
            String variant = "all";
            Path dir = null;
            List<String> flags = new ArrayList<>();
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                if (a.equals("--")) {
                    flags.addAll(List.of(args).subList(i + 1, args.length));
                    break;
                }
                if (a.startsWith("--") && i + 1 >= args.length) {
                    throw new IllegalArgumentException(a + " needs a value");
                }
                switch (a) {
                    case "--members" -> members = Integer.parseInt(args[++i]);
                    case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                    case "--seed" -> seed = Long.parseLong(args[++i]);
                    case "--variant" -> variant = args[++i];
                    case "--dir" -> dir = Path.of(args[++i]);
                    default -> {
                        if (a.startsWith("-") || server != null) {
                            throw new IllegalArgumentException("unknown argument " + a);
                        }
                        server = Path.of(a);
                    }
                }
            }
            if (server == null) {
                throw new IllegalArgumentException("the server binary is missing (bin/etcd or /usr/bin/etcd)");
            }
            if (!Files.isExecutable(server)) {
                throw new IllegalArgumentException(server + " is not an executable file");
            }
            if (members != 1 && members != 3) {
                throw new IllegalArgumentException("--members must be 1 or 3, not " + members);
            }
            List<PowerLossVariant> variants = PowerLossVariant.parse(variant, members);
            return new Options(server.toAbsolutePath(), members, rounds < 0 ? variants.size() : rounds, seed, variants, dir,
                    List.copyOf(flags));
        }
    }

    public static void main(String[] args) throws Exception {
        Options o;
        try {
            o = Options.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("Error: " + e.getMessage());
            System.err.println("usage: power-loss.sh SERVER_BINARY [--members 1|3] [--rounds N] [--seed S]"
                    + " [--variant NAME[,NAME]] [--dir DIR] [-- server flags]");
            System.exit(2);
            return;
        }
        String why = PowerFs.unavailable();
        if (why != null) {
            System.err.println("Error: powerfs cannot run here: " + why);
            System.exit(2);
        }
        List<PowerLossRound.Report> reports = run(o, line -> System.out.println(line));
        System.out.println(summary(reports));
        System.exit(reports.stream().allMatch(PowerLossRound.Report::passed) ? 0 : 1);
    }

    /** Runs the rounds, handing each round's line to out as it ends. */
    static List<PowerLossRound.Report> run(Options o, Consumer<String> out) throws Exception {
        Path root = Path.of(System.getProperty("robustness.projectRoot", ".")).toAbsolutePath().normalize();
        Path powerfs = PowerFs.binary(root);
        // short: the control sockets' paths must stay under 108 bytes
        Path dir = o.dir() != null ? Files.createDirectories(o.dir()) : Files.createTempDirectory("power-loss-");
        out.accept("power loss: " + o.server() + ", " + o.members() + " member" + (o.members() > 1 ? "s" : "") + ", "
                + o.rounds() + " rounds from seed " + o.seed() + ", variants "
                + String.join(" ", o.variants().stream().map(PowerLossVariant::label).toList())
                + (o.serverFlags().isEmpty() ? "" : ", server flags " + String.join(" ", o.serverFlags())) + "; in " + dir);
        List<PowerLossRound.Report> reports = new ArrayList<>();
        for (int i = 0; i < o.rounds(); i++) {
            PowerLossVariant v = o.variants().get(i % o.variants().size());
            long seed = o.seed() + i;
            PowerLossRound.Config cfg = new PowerLossRound.Config(o.server(), powerfs, dir.resolve("r" + (i + 1)), o.members(),
                    v, seed, o.serverFlags());
            PowerLossRound.Report r;
            try {
                r = PowerLossRound.run(cfg);
            } catch (Exception e) {
                // before the cut (no leader, a trigger's request refused): a failed round, not the end of the run
                r = new PowerLossRound.Report(cfg.dir(), v, seed, "the round could not run", List.of(), 0, 0, List.of(),
                        List.of("the round could not run: " + e));
            }
            reports.add(r);
            out.accept("round " + (i + 1) + "/" + o.rounds() + " " + r.summary());
            if (r.passed()) {
                RobustnessRun.deleteTree(r.dir());
            }
        }
        if (reports.stream().allMatch(PowerLossRound.Report::passed)) {
            Files.deleteIfExists(dir);
        }
        long other = reports.stream().filter(r -> r.notStarted().isEmpty() && r.lost() == 0 && !r.passed()).count();
        if (other > 0) {
            out.accept(other + " rounds failed other checks (damaged backend, members disagreeing, not linearizable)");
        }
        return reports;
    }

    /** The closing line. */
    static String summary(List<PowerLossRound.Report> reports) {
        long notStarted = reports.stream().filter(r -> !r.notStarted().isEmpty()).count();
        long lost = reports.stream().mapToLong(PowerLossRound.Report::lost).sum();
        return reports.size() + " rounds, " + notStarted + " would not start, " + lost + " acknowledged writes lost";
    }
}
