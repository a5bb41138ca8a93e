package io.etcdj.robustness;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.ClusterGrpc;
import io.etcdj.api.etcdserverpb.CompactionRequest;
import io.etcdj.api.etcdserverpb.DefragmentRequest;
import io.etcdj.api.etcdserverpb.MemberAddRequest;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.robustness.PowerLossVariant.Trigger;
import io.grpc.StatusRuntimeException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * One power-loss round: a fresh cluster whose data dirs are on powerfs, writers recording every
 * operation, a power cut at the variant's moment (every member killed at once, then each
 * filesystem cut or torn and mounted again), a restart, and the checks: every member starts,
 * every acknowledged write is there, the members agree (hashkv at one revision), the history is
 * linearizable, and the backend is whole (defragment and snapshot answer, the snapshot and the
 * backend file read whole with a tool that is not the server's). A failing round keeps its
 * directory (logs, history, the filesystems' backing dirs).
 */
final class PowerLossRound {
    /** What a round is asked to do. {@code server} is our bin/etcd or the real etcd. */
    record Config(Path server, Path powerfs, Path dir, int members, PowerLossVariant variant, long seed,
                  List<String> extraFlags) {
    }

    /** What a round found; {@code notStarted} has one line per member that would not start. */
    record Report(Path dir, PowerLossVariant variant, long seed, String trigger, List<String> cuts, int acknowledged,
                  int lost, List<String> notStarted, List<String> violations) {
        boolean passed() {
            return notStarted.isEmpty() && lost == 0 && violations.isEmpty();
        }

        String summary() {
            String verdict = passed() ? "PASS" : "FAIL";
            StringBuilder sb = new StringBuilder(String.format("%s seed %d: %s; %d acknowledged writes, %d lost; %s; %s",
                    variant.label(), seed, verdict, acknowledged, lost, trigger, String.join("; ", cuts)));
            notStarted.forEach(l -> sb.append("\n  would not start: ").append(l));
            violations.forEach(l -> sb.append("\n  ").append(l));
            if (!passed()) {
                sb.append("\n  kept in ").append(dir);
            }
            return sb.toString();
        }
    }

    private static final List<String> KEYS = List.of("r/k0", "r/k1", "r/k2");
    private static final int WRITERS = 4;
    private static final int START_SECONDS = 60;

    private final Config cfg;
    private final Random rnd;
    private final List<PowerFs> disks = new ArrayList<>();
    private final List<MemberProcess> all = new ArrayList<>();
    private final List<String> violations = new ArrayList<>();
    private final List<Fill> fills = new ArrayList<>();
    private Cluster cluster;

    /** An acknowledged 1 MiB write of the WAL filler. */
    record Fill(int n, long revision) {
    }

    private PowerLossRound(Config cfg) {
        this.cfg = cfg;
        this.rnd = new Random(cfg.seed());
    }

    static Report run(Config cfg) throws Exception {
        return new PowerLossRound(cfg).run();
    }

    private Report run() throws Exception {
        Files.createDirectories(cfg.dir());
        List<String> cuts = new ArrayList<>();
        List<String> notStarted = new ArrayList<>();
        String trigger;
        List<Op> history;
        Workload workload;
        try {
            boolean adding = cfg.variant().trigger() == Trigger.MEMBER_ADD;
            makeMembers(adding ? cfg.members() - 1 : cfg.members());
            List<MemberProcess> initial = adding ? all.subList(0, cfg.members() - 1) : all;
            cluster = Cluster.of(Cluster.Server.OURS, cfg.dir(), new ArrayList<>(initial));
            for (MemberProcess m : initial) {
                m.start();
            }
            cluster.awaitLeader(START_SECONDS);
            workload = new Workload(cluster, KEYS, WRITERS, cfg.seed(), List.of());
            List<Thread> writers = workload.start();
            awaitFirstAcknowledgedWrite(workload);
            trigger = trigger();
            powerCut(cuts);
            workload.stop();
            for (Thread t : writers) {
                t.join(3 * Workload.OP_TIMEOUT_MILLIS);
            }
            for (PowerFs disk : disks) {
                disk.reboot();
            }
            for (MemberProcess m : all) {
                m.start();
            }
            notStarted.addAll(awaitStarted());
            int lost = 0;
            if (notStarted.isEmpty()) {
                cluster.awaitLeader(START_SECONDS);
                RobustnessRun.settle(cluster, violations);
                workload.finalReads();
                history = workload.history();
                PowerLossChecks checks = new PowerLossChecks(cluster, cfg.dir(), violations);
                lost = checks.lostWrites(history) + checks.lostFills(fills);
                RobustnessRun.checkMembersAgree(cluster, violations);
                checks.checkBackends();
                Linearizability.Result lin = new Linearizability(TimeUnit.SECONDS.toNanos(60)).check(history);
                if (!lin.linearizable() || !lin.complete()) {
                    violations.add(lin.explanation());
                }
            } else {
                history = workload.history();
            }
            int acked = (int) history.stream().filter(PowerLossChecks::acknowledgedWrite).count() + fills.size();
            Report report = new Report(cfg.dir(), cfg.variant(), cfg.seed(), trigger, cuts, acked, lost, notStarted,
                    List.copyOf(violations));
            keep(history, report);
            return report;
        } finally {
            if (cluster != null) {
                cluster.close();
            }
            for (PowerFs disk : disks) {
                try {
                    disk.unmount();
                } catch (IOException e) {
                    System.err.println("powerfs: " + e.getMessage());
                }
            }
        }
    }

    private void makeMembers(int initialCount) throws IOException, InterruptedException {
        Set<Integer> taken = new TreeSet<>();
        int[][] ports = new int[cfg.members()][2];
        for (int[] p : ports) {
            for (int j = 0; j < 2; j++) {
                do {
                    p[j] = Cluster.freePort();
                } while (!taken.add(p[j]));
            }
        }
        for (int i = 0; i < cfg.members(); i++) {
            String name = "m" + (i + 1);
            PowerFs disk = PowerFs.mount(cfg.powerfs(), cfg.dir().resolve(name + ".disk"), cfg.dir().resolve(name + ".mnt"),
                    cfg.dir().resolve(name + ".ctl"), cfg.dir().resolve(name + ".powerfs.log"));
            disks.add(disk);
            Path work = Files.createDirectories(cfg.dir().resolve(name + ".work"));
            // the added member's initial cluster names everyone, the others' only the first ones
            int known = i < initialCount ? initialCount : cfg.members();
            String initial = "";
            for (int k = 0; k < known; k++) {
                initial += (k > 0 ? "," : "") + "m" + (k + 1) + "=http://127.0.0.1:" + ports[k][1];
            }
            List<String> cmd = new ArrayList<>(Cluster.memberCommand(cfg.server(), disk.mountPoint().resolve(name + ".etcd"),
                    name, "127.0.0.1", ports[i][0], ports[i][1], ports[i][1], initial, i < initialCount ? "new" : "existing"));
            if (cfg.extraFlags().stream().noneMatch(f -> f.startsWith("--snapshot-count"))) {
                cmd.addAll(cfg.variant().trigger().flags());
            }
            cmd.addAll(cfg.extraFlags());
            all.add(new MemberProcess(name, "127.0.0.1", ports[i][0], ports[i][1], ports[i][1],
                    disk.mountPoint().resolve(name + ".etcd"), cfg.dir().resolve(name + ".log"), work, cmd));
        }
    }

    /** A cold member may take a while for its first write: the variant's clock starts after it. */
    private static void awaitFirstAcknowledgedWrite(Workload workload) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (workload.history().stream().noneMatch(PowerLossChecks::acknowledgedWrite) && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
    }

    /** Waits for the variant's moment; says what it was. */
    private String trigger() throws Exception {
        switch (cfg.variant().trigger()) {
            case RANDOM -> {
                long ms = 1500 + rnd.nextInt(2500);
                Thread.sleep(ms);
                return "cut after " + ms + " ms of writes";
            }
            case SNAPSHOT -> {
                Thread.sleep(1000);
                boolean seen = awaitNewFile("member/snap", ".snap", files("member/snap", ".snap"), 20);
                long ms = rnd.nextInt(100);
                Thread.sleep(ms);
                return seen ? "cut " + ms + " ms after a new snapshot file" : "no new snapshot file within 20 s; cut then";
            }
            case DEFRAG -> {
                // after a raft snapshot: a backend that loses the defragmented copy is then behind it
                Thread.sleep(1000 + rnd.nextInt(1500));
                awaitNewFile("member/snap", ".snap", Set.of(), 20);
                for (MemberProcess m : cluster.members()) {
                    cluster.maintenance(m, 30_000).defragment(DefragmentRequest.getDefaultInstance());
                }
                long ms = rnd.nextInt(150);
                Thread.sleep(ms);
                return "cut " + ms + " ms after defragmenting every member";
            }
            case COMPACTION -> {
                Thread.sleep(1000 + rnd.nextInt(1500));
                MemberProcess m = cluster.awaitLeader(10);
                long rev = cluster.kv(m, 5000).range(RangeRequest.newBuilder().setKey(ByteString.copyFromUtf8("r/"))
                        .setRangeEnd(ByteString.copyFromUtf8("r0")).setCountOnly(true).build()).getHeader().getRevision();
                boolean physical = rnd.nextBoolean();
                cluster.kv(m, 30_000).compact(CompactionRequest.newBuilder().setRevision(rev).setPhysical(physical).build());
                long ms = rnd.nextInt(300);
                Thread.sleep(ms);
                return "cut " + ms + " ms after a " + (physical ? "physical " : "") + "compaction at revision " + rev;
            }
            case WAL_CUT -> {
                return walCut();
            }
            case MEMBER_ADD -> {
                Thread.sleep(1000 + rnd.nextInt(1000));
                MemberProcess added = all.get(all.size() - 1);
                addMember(added);
                cluster.add(added);
                added.start();
                if (rnd.nextBoolean()) {
                    // while it starts: it may have nothing durable yet and join afresh at the restart,
                    // while its peers restart too
                    long ms = rnd.nextInt(1500);
                    Thread.sleep(ms);
                    return "cut " + ms + " ms after the added " + added.name + " was started";
                }
                // while it catches up, once it serves
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_SECONDS);
                while (cluster.status(added, 1000) == null && added.exitCode() == null && System.nanoTime() < deadline) {
                    Thread.sleep(20);
                }
                long ms = rnd.nextInt(2000);
                Thread.sleep(ms);
                return "cut " + ms + " ms after the added " + added.name + " served";
            }
            default -> throw new IllegalStateException(cfg.variant().toString());
        }
    }

    /**
     * MemberAdd through the leader; the real etcd refuses it ("unhealthy cluster") until every
     * member has been connected for 5 s, so that answer is retried for 30 s.
     */
    private void addMember(MemberProcess added) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try {
                ClusterGrpc.newBlockingStub(cluster.channel(cluster.awaitLeader(10))).withDeadlineAfter(10, TimeUnit.SECONDS)
                        .memberAdd(MemberAddRequest.newBuilder().addPeerURLs(added.advertisedPeerUrl()).build());
                return;
            } catch (StatusRuntimeException e) {
                if (!String.valueOf(e.getStatus().getDescription()).contains("unhealthy cluster") || System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(500);
            }
        }
    }

    /** Writes 1 MiB values until a member's WAL has a new segment, then cuts within 100 ms. */
    private String walCut() throws Exception {
        Thread.sleep(500);
        Set<String> before = files("member/wal", ".wal");
        MemberProcess leader = cluster.awaitLeader(10);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        for (int n = 0; files("member/wal", ".wal").equals(before) && System.nanoTime() < deadline; n++) {
            try {
                long rev = cluster.kv(leader, 10_000).put(PutRequest.newBuilder().setKey(ByteString.copyFromUtf8("fill"))
                        .setValue(fillValue(n)).build()).getHeader().getRevision();
                fills.add(new Fill(n, rev));
            } catch (StatusRuntimeException e) {
                leader = cluster.awaitLeader(10);
            }
        }
        long ms = rnd.nextInt(100);
        Thread.sleep(ms);
        return files("member/wal", ".wal").equals(before) ? "no new WAL segment within 120 s; cut then"
                : "cut " + ms + " ms after a new WAL segment (" + fills.size() + " MiB written)";
    }

    private static ByteString fillValue(int n) {
        byte[] v = new byte[1 << 20];
        byte[] head = ("fill-" + n + "|").getBytes();
        System.arraycopy(head, 0, v, 0, head.length);
        return ByteString.copyFrom(v);
    }

    /** Waits until a member has a file ending so in that directory that is not in before; false after the time. */
    private boolean awaitNewFile(String sub, String suffix, Set<String> before, int seconds) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline) {
            Set<String> now = files(sub, suffix);
            now.removeAll(before);
            if (!now.isEmpty()) {
                return true;
            }
            Thread.sleep(10);
        }
        return false;
    }

    /** The names of files ending so in that directory of every member's data dir. */
    private Set<String> files(String sub, String suffix) throws IOException {
        Set<String> out = new TreeSet<>();
        for (MemberProcess m : all) {
            Path d = m.dataDir.resolve(sub);
            if (Files.isDirectory(d)) {
                try (Stream<Path> s = Files.list(d)) {
                    s.map(p -> m.name + "/" + p.getFileName()).filter(n -> n.endsWith(suffix)).forEach(out::add);
                } catch (IOException e) {
                    // a file renamed while listed: look again next time
                }
            }
        }
        return out;
    }

    /** Every member killed at the same moment, then each filesystem loses what was not durable. */
    private void powerCut(List<String> cuts) throws Exception {
        List<Thread> killers = new ArrayList<>();
        for (MemberProcess m : all) {
            Thread t = new Thread(() -> {
                try {
                    m.kill9();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            t.start();
            killers.add(t);
        }
        for (Thread t : killers) {
            t.join();
        }
        for (int i = 0; i < disks.size(); i++) {
            PowerFs disk = disks.get(i);
            String what = cfg.variant().torn() ? disk.torn(cfg.seed() * 31 + i) : disk.cut();
            cuts.add(all.get(i).name + " " + what);
        }
    }

    /** Waits for every member to serve; one line for each that would not. */
    private List<String> awaitStarted() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_SECONDS);
        List<MemberProcess> waiting = new ArrayList<>(all);
        List<String> failed = new ArrayList<>();
        while (!waiting.isEmpty() && System.nanoTime() < deadline) {
            for (Iterator<MemberProcess> it = waiting.iterator(); it.hasNext(); ) {
                MemberProcess m = it.next();
                if (m.exitCode() != null) {
                    failed.add(m.name + " " + startFailure(m));
                    it.remove();
                } else if (m.acceptsClients() && cluster.status(m, 1000) != null) {
                    it.remove();
                }
            }
            Thread.sleep(100);
        }
        for (MemberProcess m : waiting) {
            failed.add(m.name + " did not serve within " + START_SECONDS + " s: " + lastLine(m));
        }
        return failed;
    }

    /** A JVM crash (hs_err file, fatal error banner) or the server's own refusal, in one line. */
    private static String startFailure(MemberProcess m) {
        boolean hsErr;
        try (Stream<Path> s = Files.list(m.workDir)) {
            hsErr = s.anyMatch(p -> p.getFileName().toString().startsWith("hs_err"));
        } catch (IOException e) {
            hsErr = false;
        }
        String log = m.logTail(400);
        if (hsErr || log.contains("A fatal error has been detected by the Java Runtime Environment")) {
            String signal = log.lines().filter(l -> l.contains("SIGBUS") || l.contains("SIGSEGV")).findFirst().orElse("");
            return "crashed (JVM fatal error" + (signal.isEmpty() ? "" : ": " + signal.replace("#", "").strip()) + ")";
        }
        String line = lastLine(m);
        // a refusal should name what is damaged: the data dir's file, as the real etcd's errors do
        boolean namesFile = line.contains(m.dataDir.toString()) || line.contains("member/");
        return "exited with " + m.exitCode() + (namesFile ? "" : " (its last line names no file)") + ": " + line;
    }

    private static String lastLine(MemberProcess m) {
        List<String> lines = m.logTail(30).lines().filter(l -> !l.isBlank()).toList();
        return lines.isEmpty() ? "(no output)" : lines.get(lines.size() - 1).strip();
    }

    /** A failing round keeps its directory with the history; a passing one is deleted. */
    private void keep(List<Op> history, Report report) throws IOException {
        if (report.passed()) {
            return;
        }
        List<String> lines = new ArrayList<>();
        lines.add("# " + report.summary().replace("\n", "\n# "));
        history.stream().sorted(Comparator.comparingLong(Op::invokeNanos)).forEach(o -> lines.add(o.toString()));
        Files.write(cfg.dir().resolve("history.txt"), lines);
    }
}
