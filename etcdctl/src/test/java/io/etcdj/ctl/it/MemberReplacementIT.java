package io.etcdj.ctl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.harness.Command;
import io.etcdj.harness.Eventually;
import io.etcdj.harness.LoggedProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The seed's procedure for replacing a failed member, as written: find the failed member's ID with
 * {@code member list}, {@code member remove} it, {@code member add} the new one with
 * {@code --peer-urls}, start it with the {@code ETCD_NAME}, {@code ETCD_INITIAL_CLUSTER} and
 * {@code ETCD_INITIAL_CLUSTER_STATE=existing} that member add printed. Run on a 3-member cluster of
 * the real etcd 3.4 and of ours with the real etcdctl (same transcript, IDs and ports aside), and
 * on ours again with our etcdctl.
 */
class MemberReplacementIT {
    private static final Pattern ID = Pattern.compile("^([0-9a-f]+), started, m1,", Pattern.MULTILINE);
    private static final Pattern PUBLISHED = Pattern.compile(", started, m4, [^,]+, http://");
    private static final Pattern ENV = Pattern.compile("^(ETCD_[A-Z_]+)=\"([^\"]*)\"$", Pattern.MULTILINE);

    @TempDir
    Path dir;

    private record Run(int code, String out, String err) {
    }

    private static Run etcdctl(String tool, String endpoints, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(tool, "--endpoints=" + endpoints));
        cmd.addAll(List.of(args));
        Command.Result r = Command.of(cmd).withoutEnv("ETCD").env("ETCDCTL_API", "3")
                .env("ETCDJ_NO_DAEMON", "1") // each call its own process: no resident server
                .run();
        return new Run(r.exitCode(), r.stdout(), r.stderr());
    }

    /**
     * Runs a reconfiguration as an operator does, again while the cluster is still electing a new
     * leader or (etcd 3.4) refusing it as "unhealthy" in the 5 seconds after its leader connected.
     */
    private static Run untilHealthy(String tool, String endpoints, String... args) throws Exception {
        return Eventually.poll(Duration.ofSeconds(40), Duration.ofSeconds(1), () -> etcdctl(tool, endpoints, args),
                r -> !(r.code() != 0 && (r.err().contains("unhealthy cluster") || r.err().contains("deadline exceeded")
                        || r.err().contains("no leader"))));
    }

    /**
     * Waits until one of {@code endpoints} says it is the leader ({@code endpoint status}'s fifth
     * column): right after the leader was killed its followers still forward proposals to it for up
     * to an election timeout, and etcd 3.4 answers such a lost proposal "request timed out" after
     * etcdctl's 5 s, with the member remove not done. An operator looking at the cluster first
     * would not see that; a script sent at once does.
     */
    private static void awaitLeader(String tool, String endpoints) throws Exception {
        Eventually.poll(Duration.ofSeconds(30), Duration.ofMillis(200), () -> etcdctl(tool, endpoints, "endpoint", "status"),
                r -> r.out().lines().anyMatch(line -> {
                    String[] columns = line.split(", ");
                    return columns.length > 4 && columns[4].equals("true");
                }));
    }

    /**
     * member remove, sent again after "request timed out" while the member is still listed (the
     * timed-out proposal was lost, as the operator sees in member list): a loaded machine can be
     * slower than etcdctl's 5 s even with a leader in place.
     */
    private static Run removeUntilGone(String tool, String endpoints, String id) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(40).toNanos();
        Run remove = untilHealthy(tool, endpoints, "member", "remove", id);
        while (remove.code() != 0 && remove.err().contains("request timed out") && System.nanoTime() - deadline < 0
                && etcdctl(tool, endpoints, "member", "list").out().contains(id + ", ")) {
            remove = untilHealthy(tool, endpoints, "member", "remove", id);
        }
        return remove;
    }

    /** The procedure; returns what the operator saw, with IDs and ports replaced. */
    private List<String> replaceFailedMember(Path server, String tool, String run) throws Exception {
        List<String> seen = new ArrayList<>();
        try (OurMembers members = new OurMembers(dir.resolve(run), server)) {
            Files.createDirectories(dir.resolve(run));
            List<OurMembers.Member> cluster = List.of(OurMembers.member("m1"), OurMembers.member("m2"),
                    OurMembers.member("m3"));
            String initial = OurMembers.initialCluster(cluster);
            List<LoggedProcess> processes = new ArrayList<>();
            for (OurMembers.Member m : cluster) {
                processes.add(members.launch(m, Map.of(), "--name=" + m.name(), "--initial-cluster=" + initial,
                        "--initial-cluster-state=new", "--initial-cluster-token=replace"));
            }
            for (OurMembers.Member m : cluster) {
                OurMembers.awaitPort(m.client());
            }
            String all = String.join(",", cluster.stream().map(OurMembers.Member::endpoint).toList());
            assertEquals(0, etcdctl(tool, all, "put", "before", "1").code());
            // the procedure starts from a running cluster: every member has published its name (a
            // member killed before that is listed "unstarted", by etcd too)
            Eventually.poll(Duration.ofSeconds(30), Duration.ofMillis(200), () -> etcdctl(tool, all, "member", "list"),
                    started -> started.out().split(", started, ", -1).length - 1 >= cluster.size());
            // member1 fails
            processes.get(0).kill9();
            String survivors = cluster.get(1).endpoint() + "," + cluster.get(2).endpoint();
            Run list = etcdctl(tool, survivors, "member", "list");
            seen.add("member list: exit " + list.code());
            Matcher id = ID.matcher(list.out());
            assertTrue(id.find(), list.out() + list.err());
            awaitLeader(tool, survivors);
            Run remove = removeUntilGone(tool, survivors, id.group(1));
            seen.add("member remove: exit " + remove.code() + " " + remove.out().strip() + remove.err().strip());
            OurMembers.Member m4 = OurMembers.member("m4");
            Run add = untilHealthy(tool, survivors, "member", "add", "m4", "--peer-urls=" + m4.peerUrl());
            seen.add("member add: exit " + add.code() + "\n" + add.out().strip() + add.err().strip());
            Map<String, String> env = new HashMap<>();
            Matcher e = ENV.matcher(add.out());
            while (e.find()) {
                env.put(e.group(1), e.group(2));
            }
            assertEquals("existing", env.get("ETCD_INITIAL_CLUSTER_STATE"), run + ": " + add.out() + add.err() + remove.err());
            // as the seed: export ETCD_NAME, ETCD_INITIAL_CLUSTER and ETCD_INITIAL_CLUSTER_STATE (the
            // peer URLs go as flags; etcd refuses a variable that a flag shadows)
            env.keySet().retainAll(Set.of("ETCD_NAME", "ETCD_INITIAL_CLUSTER", "ETCD_INITIAL_CLUSTER_STATE"));
            members.launch(m4, env);
            OurMembers.awaitPort(m4.client());
            String now = survivors + "," + m4.endpoint();
            // until every member knows m4 as started with its client URL (published through Raft)
            Run after = Eventually.poll(Duration.ofSeconds(30), Duration.ofMillis(200), () -> etcdctl(tool, now, "member", "list"),
                    r -> PUBLISHED.matcher(r.out()).find());
            seen.add("member list after: exit " + after.code() + "\n" + after.out().strip());
            seen.add("get on the new member: " + etcdctl(tool, m4.endpoint(), "get", "before", "--print-value-only").out().strip());
            seen.add("put through the new member: " + etcdctl(tool, m4.endpoint(), "put", "after", "2").out().strip());
        }
        return seen.stream().map(MemberReplacementIT::normalise).toList();
    }

    private static String normalise(String s) {
        // etcdctl lists the initial cluster in the order of the member IDs, which are random
        Matcher ic = Pattern.compile("ETCD_INITIAL_CLUSTER=\"([^\"]*)\"").matcher(s);
        if (ic.find()) {
            String sorted = String.join(",", Arrays.stream(ic.group(1).split(",")).sorted().toList());
            s = s.substring(0, ic.start(1)) + sorted + s.substring(ic.end(1));
        }
        // IDs are random, and %16x pads a shorter one with spaces
        return s.replaceAll(" *\\b[0-9a-f]{12,16}\\b", " <ID>").replaceAll("^ <ID>", "<ID>").replaceAll("\n <ID>", "\n<ID>")
                .replaceAll("127\\.0\\.0\\.1:\\d+", "<ADDR>")
                // member list order follows the IDs, which are random
                .lines().sorted().reduce((a, b) -> a + "\n" + b).orElse("");
    }

    @Test
    void replacingAFailedMemberAsTheSeedWritesIt() throws Exception {
        List<String> real = replaceFailedMember(RealEtcd.ETCD, RealEtcd.ETCDCTL.toString(), "real");
        System.out.println("member replacement on etcd 3.4:\n" + String.join("\n", real));
        List<String> ours = replaceFailedMember(OurMembers.ROOT.resolve("bin/etcd"), RealEtcd.ETCDCTL.toString(), "ours");
        assertEquals(String.join("\n", real), String.join("\n", ours));
        List<String> oursWithOurEtcdctl = replaceFailedMember(OurMembers.ROOT.resolve("bin/etcd"),
                OurMembers.ROOT.resolve("bin/etcdctl").toString(), "ours-ctl");
        assertEquals(String.join("\n", real), String.join("\n", oursWithOurEtcdctl));
    }
}
