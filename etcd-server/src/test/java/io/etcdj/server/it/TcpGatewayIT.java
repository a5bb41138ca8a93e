package io.etcdj.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.harness.Command;
import io.etcdj.harness.EtcdProcess;
import io.etcdj.harness.Eventually;
import io.etcdj.harness.ProcessCluster;
import io.etcdj.harness.ServerCommand;
import io.etcdj.harness.TempDirs;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code etcd gateway start} (the L4 gateway) in front of a three-member cluster, ours and etcd
 * 3.4's: the real etcdctl talks to the gateway only; one member is killed and every later
 * request still succeeds, the gateway logging that it deactivated the dead endpoint; once the
 * member is back the retry monitor reactivates it. The command line's help and error output is
 * compared byte for byte with etcd 3.4's.
 */
class TcpGatewayIT {
    private static final String READY = "ready to proxy client requests";

    @ParameterizedTest
    @EnumSource(EtcdProcess.Binary.class)
    void gatewayHidesADeadMemberAndReactivatesItWhenItReturns(EtcdProcess.Binary binary) throws Exception {
        try (ProcessCluster cluster = ProcessCluster.start(binary, 3);
             ProxyProcess gateway = ProxyProcess.start(binary, "gateway", READY, List.of(),
                     "--endpoints=" + cluster.endpoints(), "--retry-delay=1s")) {
            Etcdctl ctl = new Etcdctl(gateway.endpoint());
            assertEquals("OK\n", ctl.run("put", "foo", "bar").ok().stdout());
            assertEquals("foo\nbar\n", ctl.run("get", "foo").ok().stdout());
            String members = ctl.run("member", "list").ok().stdout();
            assertEquals(3, members.lines().count(), members);
            assertTrue(gateway.log().contains("\"endpoints\":[\"" + cluster.endpoints().replace(",", "\",\"") + "\"]"),
                    gateway.log());

            // a follower: killing the leader would stall writes for an election, which is the
            // cluster's business, not the gateway's
            EtcdProcess dead = follower(cluster);
            dead.kill9();
            // six connections: with round-robin over three endpoints at least two of them are
            // routed to the dead member first and must be moved to a live one
            for (int i = 0; i < 6; i++) {
                assertEquals("OK\n", ctl.run("put", "k" + i, "v" + i).ok().stdout());
                assertEquals("v" + i + "\n", ctl.run("get", "k" + i, "--print-value-only").ok().stdout());
            }
            String log = gateway.log();
            assertTrue(log.contains("\"msg\":\"deactivated endpoint\",\"address\":\"" + dead.endpoint() + "\""), log);
            assertTrue(log.contains("connect: connection refused"), log);

            dead.start();
            String activated = "\"msg\":\"activated\",\"address\":\"" + dead.endpoint() + "\"";
            Eventually.poll(Duration.ofSeconds(30), Duration.ofMillis(200), gateway::log, text -> text.contains(activated));
            assertTrue(gateway.log().contains(activated), gateway.log());
            assertEquals("v5\n", ctl.run("get", "k5", "--print-value-only").ok().stdout());
        }
    }

    /** A member that is not the leader, from its own endpoint status. */
    static EtcdProcess follower(ProcessCluster cluster) {
        Pattern ids = Pattern.compile("\"member_id\":(\\d+).*\"leader\":(\\d+)");
        for (EtcdProcess m : cluster.members()) {
            String status = new Etcdctl(m.endpoint()).run("endpoint", "status", "-w", "json").ok().stdout();
            Matcher match = ids.matcher(status);
            if (match.find() && !match.group(1).equals(match.group(2))) {
                return m;
            }
        }
        throw new AssertionError("no follower in " + cluster.endpoints());
    }

    /** Command lines that end before the gateway listens: same stdout, stderr and exit code as etcd 3.4. */
    @ParameterizedTest
    @ValueSource(strings = {
        "gateway", "gateway --help", "gateway --bogus", "gateway start --help", "gateway start -h",
        "gateway start --bogus", "gateway start -x", "gateway start --retry-delay=abc",
        "gateway start --insecure-discovery=maybe", "gateway start --listen-addr=bad",
        "gateway start --listen-addr=127.0.0.1:1 --endpoints=foo", "gateway start --listen-addr=127.0.0.1:1 --endpoints=",
        "gateway start --listen-addr=127.0.0.1:1 --endpoints=127.0.0.1:1", "gateway start --listen-addr",
        // flags before "start", as cobra's command search steps over them (or takes "start" as a value)
        "gateway --endpoints=127.0.0.1:1 start --listen-addr=127.0.0.1:1", "gateway --retry-delay=abc start",
        "gateway --listen-addr bad start", "gateway --bogus start", "gateway -h start", "gateway foo --endpoints=x",
        "gateway --bogus=1 start --help", "grpc-proxy --bogus start", "grpc-proxy --endpoints=x start --bogus",
        "grpc-proxy foo",
    })
    void commandLineMatchesEtcd(String line) throws Exception {
        List<String> args = List.of(line.split(" "));
        List<String> ours = new ArrayList<>(ServerCommand.ours().prefix(List.of()));
        ours.addAll(args);
        List<String> real = new ArrayList<>(List.of(EtcdProcess.REAL_ETCD.toString()));
        real.addAll(args);
        assertEquals(run(real), run(ours), line);
    }

    /** Exit code, stdout and stderr of a command that must end by itself. */
    static String run(List<String> cmd) throws IOException, InterruptedException {
        Path dir = TempDirs.create("etcd-cli-it-");
        try {
            Command.Result r = Command.of(cmd).dir(dir).withoutEnv("ETCD").timeout(Duration.ofSeconds(30)).run();
            return "exit " + r.exitCode() + "\nstdout:\n" + r.stdout() + "\nstderr:\n" + r.stderr();
        } finally {
            TempDirs.delete(dir);
        }
    }
}
