package io.etcdj.ctl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.client.ClientConfig;
import io.etcdj.client.Endpoint;
import io.etcdj.client.EtcdClient;
import io.etcdj.client.EtcdClientException;
import io.etcdj.harness.Command;
import io.etcdj.harness.Eventually;
import io.etcdj.harness.FreePorts;
import io.etcdj.harness.LoggedProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The operators' requests beyond etcd (docs/etcdctl.md, "Beyond etcd"), run with our etcdctl
 * against members of our server and of the real etcd 3.4: member remove --name, snapshot save
 * from the first healthy of several endpoints, recover-space after a NOSPACE alarm, and the
 * progress line, drawn at a terminal (under {@code script}) and absent in a pipe.
 */
class OperatorsIT {
    private static final Path ETCDCTL = OurMembers.ROOT.resolve("bin/etcdctl");
    private static final Pattern REMOVED = Pattern.compile("^Member +([0-9a-f]+) removed from cluster +([0-9a-f]+)$",
            Pattern.MULTILINE);

    @TempDir
    Path dir;

    private record Run(int code, String out, String err) {
    }

    private static Path server(String which) {
        return "real".equals(which) ? RealEtcd.ETCD : OurMembers.ROOT.resolve("bin/etcd");
    }

    /** Our etcdctl, in a pipe, each call a JVM of its own. */
    private Run etcdctl(String endpoints, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(ETCDCTL.toString(), "--endpoints=" + endpoints));
        cmd.addAll(List.of(args));
        return inPipe(cmd);
    }

    /** A command line with stdin, stdout and stderr pipes. */
    private Run inPipe(List<String> cmd) throws Exception {
        Command.Result r = environment(Command.of(cmd)).run();
        return new Run(r.exitCode(), r.stdout(), r.stderr());
    }

    private Command environment(Command c) {
        return c.dir(dir).withoutEnv("ETCD").env("ETCDCTL_API", "3").env("ETCDJ_NO_DAEMON", "1")
                .timeout(Duration.ofSeconds(120));
    }

    /** Our etcdctl at a pseudo-terminal ({@code script -qfec}); returns the screen (stdout and stderr). */
    private String atTerminal(String endpoints, String... args) throws Exception {
        List<String> words = new ArrayList<>(List.of(ETCDCTL.toString(), "--endpoints=" + endpoints));
        words.addAll(List.of(args));
        return commandAtTerminal(words);
    }

    /** A command line at a pseudo-terminal; returns the screen. */
    private String commandAtTerminal(List<String> words) throws Exception {
        Command.Result r = environment(Command.of(words).atTerminal()).env("TERM", "xterm").run();
        assertEquals(0, r.exitCode(), r.stdout());
        return r.stdout();
    }

    private OurMembers.Member startOne(OurMembers members, String which, String name, String... flags) throws Exception {
        OurMembers.Member m = OurMembers.member(name);
        List<String> all = new ArrayList<>(List.of("--name=" + name, "--initial-cluster=" + name + "=" + m.peerUrl(),
                "--initial-cluster-token=ops-" + which));
        all.addAll(List.of(flags));
        members.launch(m, Map.of(), all.toArray(String[]::new));
        OurMembers.awaitPort(m.client());
        Eventually.poll(Duration.ofSeconds(30), Duration.ofMillis(300), () -> etcdctl(m.endpoint(), "endpoint", "health"),
                r -> r.code() == 0);
        return m;
    }

    @ParameterizedTest
    @ValueSource(strings = {"ours", "real"})
    void memberRemoveByName(String which) throws Exception {
        try (OurMembers members = new OurMembers(dir, server(which))) {
            List<OurMembers.Member> cluster = List.of(OurMembers.member("infra1"), OurMembers.member("infra2"));
            for (OurMembers.Member m : cluster) {
                members.launch(m, OurMembers.initialCluster(cluster), "new", "ops-" + which);
            }
            String eps = cluster.get(0).endpoint() + "," + cluster.get(1).endpoint();
            // both members have published their names
            Eventually.poll(Duration.ofSeconds(60), Duration.ofMillis(300), () -> etcdctl(eps, "member", "list"),
                    r -> r.out().contains(", started, infra1,") && r.out().contains(", started, infra2,"));

            Run unknown = etcdctl(eps, "member", "remove", "--name", "infra9");
            assertEquals(1, unknown.code(), unknown.err());
            assertTrue(unknown.err().startsWith("Error: no member named \"infra9\" in the cluster (members: "), unknown.err());
            Run both = etcdctl(eps, "member", "remove", "1234", "--name", "infra2");
            assertEquals(128, both.code(), both.err());

            String id = memberId(etcdctl(eps, "member", "list").out(), "infra2");
            Run removed = Eventually.poll(Duration.ofSeconds(30), Duration.ofSeconds(1),
                    () -> etcdctl(cluster.get(0).endpoint(), "member", "remove", "--name", "infra2"),
                    r -> !r.err().contains("unhealthy cluster"));
            assertEquals(0, removed.code(), removed.err());
            Matcher m = REMOVED.matcher(removed.out());
            assertTrue(m.find(), removed.out());
            assertEquals(id, m.group(1), "the member named infra2 is the one removed");
            String after = etcdctl(cluster.get(0).endpoint(), "member", "list").out();
            assertFalse(after.contains("infra2"), after);
            assertTrue(after.contains(", started, infra1,"), after);
        }
    }

    private static String memberId(String list, String name) {
        Matcher m = Pattern.compile("^([0-9a-f]+), started, " + name + ",", Pattern.MULTILINE).matcher(list);
        assertTrue(m.find(), list);
        return m.group(1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"ours", "real"})
    void snapshotSaveTakesTheFirstEndpointThatDelivers(String which) throws Exception {
        try (OurMembers members = new OurMembers(dir, server(which))) {
            OurMembers.Member m = startOne(members, which, "snap1");
            assertEquals(0, etcdctl(m.endpoint(), "put", "k", "v").code());
            String dead = "127.0.0.1:" + FreePorts.pick();

            Run one = etcdctl(m.endpoint(), "snapshot", "save", "one.db");
            assertEquals(0, one.code(), one.err());
            assertEquals("Snapshot saved at one.db\n", one.out());
            assertFalse(one.err().contains("Snapshot taken from"), "one endpoint: etcdctl's output only");

            Run failover = etcdctl(dead + "," + m.endpoint(), "snapshot", "save", "two.db");
            assertEquals(0, failover.code(), failover.err());
            assertEquals("Snapshot saved at two.db\n", failover.out());
            assertTrue(failover.err().contains("Error: snapshot from " + dead + " failed ("), failover.err());
            assertTrue(failover.err().contains("trying the next endpoint"), failover.err());
            String id = memberIdOf(m);
            assertTrue(failover.err().contains("Snapshot taken from member snap1 (" + id + ") at " + m.endpoint()),
                    failover.err());
            assertTrue(Files.size(dir.resolve("two.db")) > 0);
            assertFalse(Files.exists(dir.resolve("two.db.part")));

            // each dead endpoint fails at the command timeout (5 s by default): 1 s makes the same failure
            Run none = etcdctl(dead + "," + dead, "--command-timeout=1s", "snapshot", "save", "three.db");
            assertTrue(none.code() != 0, none.out());
            assertFalse(Files.exists(dir.resolve("three.db")));
            assertFalse(Files.exists(dir.resolve("three.db.part")));
        }
    }

    private String memberIdOf(OurMembers.Member m) throws Exception {
        return memberId(etcdctl(m.endpoint(), "member", "list").out(), m.name());
    }

    @ParameterizedTest
    @ValueSource(strings = {"ours", "real"})
    void recoverSpaceAfterNospace(String which) throws Exception {
        try (OurMembers members = new OurMembers(dir, server(which))) {
            OurMembers.Member m = startOne(members, which, "full1", "--quota-backend-bytes=" + (8L << 20));
            fillUntilNospace(m.endpoint());
            Run alarms = etcdctl(m.endpoint(), "alarm", "list");
            assertTrue(alarms.out().contains("alarm:NOSPACE"), alarms.out());
            Run refused = etcdctl(m.endpoint(), "put", "after", "1");
            assertTrue(refused.err().contains("database space exceeded"), refused.err());

            Run rec = etcdctl(m.endpoint(), "recover-space");
            assertEquals(0, rec.code(), rec.out() + rec.err());
            String id = memberIdOf(m);
            List<String> lines = rec.out().lines().toList();
            assertTrue(lines.get(0).matches("compacted revision \\d+"), rec.out());
            assertTrue(lines.get(1).matches("defragmented " + Pattern.quote("http://" + m.endpoint()) + " \\(member " + id
                    + "\\): \\d+(\\.\\d+)? [kMG]?B -> \\d+(\\.\\d+)? [kMG]?B"), rec.out());
            assertEquals("disarmed alarm NOSPACE of member " + id, lines.get(2), rec.out());
            assertTrue(lines.get(3).matches("space won: \\d+(\\.\\d+)? [kM]B on 1 member"), rec.out());
            assertEquals("", etcdctl(m.endpoint(), "alarm", "list").out());
            assertEquals(0, etcdctl(m.endpoint(), "put", "after", "1").code());

            // again, as JSON: nothing left to compact or disarm, the sizes as numbers
            Run json = etcdctl(m.endpoint(), "recover-space", "-w", "json");
            assertEquals(0, json.code(), json.err());
            assertTrue(json.out().matches("\\{\"revision\":\\d+,\"compacted\":(true|false),\"members\":\\[\\{\"endpoint\":\""
                    + Pattern.quote("http://" + m.endpoint()) + "\",\"member_id\":\\d+,\"db_size_before\":\\d+,\"db_size_after\":\\d+}],"
                    + "\"disarmed\":\\[],\"space_won\":\\d+}\n"), json.out());
        }
    }

    /**
     * The three client features on a three-member cluster of our server and of the real etcd 3.4:
     * recover-space after NOSPACE defragments every member (found through the member list from one
     * endpoint) and disarms; with the first member stopped, snapshot save given all three endpoints
     * takes the file from the next and names it; member remove --name takes the stopped member out.
     */
    @ParameterizedTest
    @ValueSource(strings = {"ours", "real"})
    void onAThreeMemberCluster(String which) throws Exception {
        try (OurMembers members = new OurMembers(dir, server(which))) {
            List<OurMembers.Member> cluster = List.of(OurMembers.member("c1"), OurMembers.member("c2"),
                    OurMembers.member("c3"));
            List<LoggedProcess> processes = new ArrayList<>();
            for (OurMembers.Member m : cluster) {
                processes.add(members.launch(m, Map.of(), "--name=" + m.name(),
                        "--initial-cluster=" + OurMembers.initialCluster(cluster), "--initial-cluster-state=new",
                        "--initial-cluster-token=ops3-" + which, "--quota-backend-bytes=" + (8L << 20)));
            }
            String all = String.join(",", cluster.stream().map(OurMembers.Member::endpoint).toList());
            Eventually.poll(Duration.ofSeconds(90), Duration.ofMillis(500), () -> etcdctl(all, "member", "list"),
                    r -> cluster.stream().allMatch(m -> r.out().contains(", started, " + m.name() + ",")));
            Eventually.poll(Duration.ofSeconds(60), Duration.ofMillis(500), () -> etcdctl(all, "endpoint", "health"),
                    r -> r.code() == 0);
            String list = etcdctl(all, "member", "list").out();

            OurMembers.Member c1 = cluster.get(0);
            fillUntilNospace(c1.endpoint());
            Eventually.poll(Duration.ofSeconds(30), Duration.ofMillis(300), () -> etcdctl(c1.endpoint(), "alarm", "list"),
                    r -> r.out().contains("alarm:NOSPACE"));
            Run rec = etcdctl(c1.endpoint(), "recover-space");
            assertEquals(0, rec.code(), rec.out() + rec.err());
            List<String> lines = rec.out().lines().toList();
            assertTrue(lines.get(0).matches("compacted revision \\d+"), rec.out());
            for (OurMembers.Member m : cluster) {
                String id = memberId(list, m.name());
                assertEquals(1, lines.stream().filter(l -> l.matches("defragmented " + Pattern.quote("http://" + m.endpoint())
                        + " \\(member " + id + "\\): \\d+(\\.\\d+)? [kMG]?B -> \\d+(\\.\\d+)? [kMG]?B")).count(),
                        "each member defragmented once, " + m.name() + ": " + rec.out());
            }
            assertTrue(lines.stream().anyMatch(l -> l.startsWith("disarmed alarm NOSPACE of member ")), rec.out());
            assertTrue(lines.get(lines.size() - 1).matches("space won: \\d+(\\.\\d+)? [kMG]?B on 3 members"), rec.out());
            assertEquals("", etcdctl(all, "alarm", "list").out());
            assertEquals(0, etcdctl(all, "put", "after", "1").code());

            processes.get(0).stop(Duration.ofSeconds(30));
            Run saved = etcdctl(all, "snapshot", "save", "from-any.db");
            assertEquals(0, saved.code(), saved.err());
            assertEquals("Snapshot saved at from-any.db\n", saved.out());
            assertTrue(saved.err().contains("Error: snapshot from " + c1.endpoint() + " failed ("), saved.err());
            OurMembers.Member c2 = cluster.get(1);
            assertTrue(saved.err().contains("Snapshot taken from member c2 (" + memberId(list, "c2") + ") at " + c2.endpoint()),
                    saved.err());
            assertTrue(Files.size(dir.resolve("from-any.db")) > 0);

            String rest = c2.endpoint() + "," + cluster.get(2).endpoint();
            Run removed = Eventually.poll(Duration.ofSeconds(30), Duration.ofSeconds(1),
                    () -> etcdctl(rest, "member", "remove", "--name", "c1"), r -> !r.err().contains("unhealthy cluster"));
            assertEquals(0, removed.code(), removed.err());
            Matcher m = REMOVED.matcher(removed.out());
            assertTrue(m.find(), removed.out());
            assertEquals(memberId(list, "c1"), m.group(1), "the member named c1 is the one removed");
            String after = etcdctl(rest, "member", "list").out();
            assertFalse(after.contains(", c1,"), after);
        }
    }

    /** Overwrites one key with 256 KB values until the member raises NOSPACE. */
    private static void fillUntilNospace(String endpoint) {
        ByteString value = ByteString.copyFrom(new byte[256 << 10]);
        try (EtcdClient c = EtcdClient.connect(ClientConfig.builder().endpoints(List.of(Endpoint.parse(endpoint))).build())) {
            for (int i = 0; i < 400; i++) {
                try {
                    c.kv(s -> s.put(PutRequest.newBuilder().setKey(ByteString.copyFromUtf8("big")).setValue(value).build()));
                } catch (EtcdClientException e) {
                    assertTrue(e.getMessage().contains("database space exceeded"), e.getMessage());
                    return;
                }
            }
        }
        throw new AssertionError("no NOSPACE after 100 MB of writes");
    }

    @ParameterizedTest
    @ValueSource(strings = {"ours", "real"})
    void progressLineAtATerminalOnlyAndOutputUnchanged(String which) throws Exception {
        try (OurMembers members = new OurMembers(dir, server(which))) {
            OurMembers.Member m = startOne(members, which, "prog1");
            String eps = m.endpoint();
            String screen = atTerminal(eps, "snapshot", "save", "tty.db");
            assertTrue(screen.contains("\r\033[Ksnapshot save: "), screen);
            assertTrue(screen.contains("Snapshot saved at tty.db"), screen);
            Run piped = etcdctl(eps, "snapshot", "save", "pipe.db");
            assertFalse(piped.err().contains("\r") || piped.out().contains("\r"), "no progress line in a pipe");
            assertFalse(piped.err().contains("snapshot save: "), piped.err());

            String defrag = atTerminal(eps, "defrag");
            assertTrue(defrag.contains("\r\033[Kdefrag: 0 of 1 members"), defrag);
            assertTrue(defrag.contains("Finished defragmenting etcd member[" + eps + "]"), defrag);
            Run defragPiped = etcdctl(eps, "defrag");
            assertEquals("Finished defragmenting etcd member[" + eps + "]\n", defragPiped.out());
            assertEquals("", defragPiped.err());

            String json = atTerminal(eps, "recover-space", "-w", "json");
            assertFalse(json.contains("\033[K"), "no progress line with -w json: " + json);
        }
    }

    /** The messages of etcd's restore log lines, in order (3.4's JSON lines or etcdutl's console lines). */
    private static List<String> logMessages(String err) {
        List<String> msgs = new ArrayList<>();
        Matcher json = Pattern.compile("\"msg\":\"([^\"]+)\"").matcher(err);
        while (json.find()) {
            msgs.add(json.group(1));
        }
        Matcher console = Pattern.compile("^\\S+\tinfo\t([^\t]+)\t", Pattern.MULTILINE).matcher(err);
        while (console.find()) {
            msgs.add(console.group(1));
        }
        return msgs;
    }

    /**
     * snapshot restore (etcdctl's, and etcdutl's) of a snapshot from our member and from the real
     * etcd: at a terminal a progress line of the bytes read (and, for etcd's bbolt file, the records
     * written) is drawn and erased; in a pipe stdout is etcdctl 3.4's (empty), its log lines say the
     * same things in the same order, and no byte of a progress line is written.
     */
    @ParameterizedTest
    @ValueSource(strings = {"ours", "real"})
    void restoreProgressLineAtATerminalOnly(String which) throws Exception {
        try (OurMembers members = new OurMembers(dir, server(which))) {
            OurMembers.Member m = startOne(members, which, "rest1");
            // the keys through one client, not fifty etcdctl processes: what is restored is the point
            try (EtcdClient c = EtcdClient.connect(ClientConfig.builder().endpoints(List.of(Endpoint.parse(m.endpoint()))).build())) {
                for (int i = 0; i < 50; i++) {
                    PutRequest put = PutRequest.newBuilder().setKey(ByteString.copyFromUtf8("k" + i))
                            .setValue(ByteString.copyFromUtf8("v" + i)).build();
                    c.kv(s -> s.put(put));
                }
            }
            assertEquals(0, etcdctl(m.endpoint(), "snapshot", "save", "s.db").code());
        }
        Path etcdutl = OurMembers.ROOT.resolve("bin/etcdutl");

        String ctlScreen = commandAtTerminal(List.of(ETCDCTL.toString(), "snapshot", "restore", "s.db", "--data-dir", "tty1"));
        assertTrue(ctlScreen.contains("\r\033[Ksnapshot restore: "), ctlScreen);
        String utlScreen = commandAtTerminal(List.of(etcdutl.toString(), "snapshot", "restore", "s.db", "--data-dir", "tty2"));
        assertTrue(utlScreen.contains("\r\033[Ksnapshot restore: "), utlScreen);
        if ("real".equals(which)) {
            assertTrue(utlScreen.contains("\r\033[Ksnapshot restore: writing: "), "etcd's file is converted record by record: "
                    + utlScreen);
        }
        for (String screen : List.of(ctlScreen, utlScreen)) {
            assertTrue(Pattern.compile("\r\033\\[K\\d{4}-\\d{2}-\\d{2}T").matcher(screen).find(),
                    "the line is erased before the next log line, which starts the line: " + screen);
            assertTrue(screen.contains("restored snapshot"), screen);
        }
        assertTrue(Files.isDirectory(dir.resolve("tty1/member/wal")));
        assertTrue(Files.isDirectory(dir.resolve("tty2/member/wal")));
        String json = commandAtTerminal(List.of(etcdutl.toString(), "-w", "json", "snapshot", "restore", "s.db", "--data-dir", "tty3"));
        assertFalse(json.contains("\033[K") || json.contains("snapshot restore: "), "no progress line with -w json: " + json);
        assertTrue(Files.isDirectory(dir.resolve("tty3/member/wal")));

        Run real = inPipe(List.of(RealEtcd.ETCDCTL.toString(), "snapshot", "restore", "s.db", "--data-dir", "pipe0"));
        assertEquals(0, real.code(), real.err());
        Run ctl = inPipe(List.of(ETCDCTL.toString(), "snapshot", "restore", "s.db", "--data-dir", "pipe1"));
        Run utl = inPipe(List.of(etcdutl.toString(), "snapshot", "restore", "s.db", "--data-dir", "pipe2"));
        for (Run ours : List.of(ctl, utl)) {
            assertEquals(real.code(), ours.code(), ours.err());
            assertEquals(real.out(), ours.out(), "stdout as etcdctl 3.4's");
            assertEquals(logMessages(real.err()), logMessages(ours.err()), ours.err());
            assertFalse(ours.err().contains("\r") || ours.err().contains("\033"), "no progress line in a pipe: " + ours.err());
            assertFalse(ours.err().contains("snapshot restore: "), ours.err());
        }
    }

    /**
     * --auto-promote-learners (etcd #15107) on our members, set as an ETCD_* variable: a learner
     * added with member add --learner becomes a voting member once it has caught up, and member list
     * shows it; the leader's log says so.
     */
    @Test
    void aLearnerIsPromotedOnceInSync() throws Exception {
        try (OurMembers members = new OurMembers(dir)) {
            OurMembers.Member l1 = OurMembers.member("l1");
            OurMembers.Member l2 = OurMembers.member("l2");
            Map<String, String> env = Map.of("ETCD_AUTO_PROMOTE_LEARNERS", "true");
            var leader = members.launch(l1, env, "--name=l1", "--initial-cluster=l1=" + l1.peerUrl(),
                    "--initial-cluster-token=ops-learner");
            OurMembers.awaitPort(l1.client());
            Eventually.poll(Duration.ofSeconds(30), Duration.ofMillis(300), () -> etcdctl(l1.endpoint(), "endpoint", "health"),
                    r -> r.code() == 0);
            Run add = etcdctl(l1.endpoint(), "member", "add", "l2", "--learner", "--peer-urls=" + l2.peerUrl());
            assertEquals(0, add.code(), add.err());
            assertTrue(add.out().contains("as learner") || add.out().contains("ETCD_NAME=\"l2\""), add.out());
            members.launch(l2, env, "--name=l2", "--initial-cluster=l1=" + l1.peerUrl() + ",l2=" + l2.peerUrl(),
                    "--initial-cluster-state=existing");
            Run list = Eventually.poll(Duration.ofSeconds(60), Duration.ofMillis(500),
                    () -> etcdctl(l1.endpoint(), "member", "list"),
                    r -> r.out().lines().anyMatch(l -> l.contains(", started, l2,") && l.endsWith(", false")));
            assertTrue(list.out().lines().allMatch(l -> l.endsWith(", false")), "no learner left: " + list.out());
            String log = Files.readString(dir.resolve("l1.log"));
            assertTrue(log.contains("promoted learner automatically"), "the leader logs the promotion");
            assertTrue(leader.isAlive());
        }
    }
}
