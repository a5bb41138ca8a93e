package io.etcdj.ctl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.etcdj.harness.Command;
import io.etcdj.harness.Prerequisites;
import io.etcdj.harness.TempDirs;
import io.etcdj.server.it.TestDnsServer;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;

/**
 * etcdctl --discovery-srv, --discovery-srv-name and --insecure-discovery against a test DNS
 * server, the real etcdctl and ours side by side. Go asks port 53 of the resolv.conf servers, so
 * both run in a mount namespace of their own whose /etc/resolv.conf names the test server on
 * port 53 of a loopback address (the machine's resolver is untouched); that needs root, without
 * it the test is skipped. The records point at one real etcd 3.4.
 */
class DiscoverySrvIT {
    private static final Path OURS = Path.of("..", "bin", "etcdctl").toAbsolutePath().normalize();

    @Test
    void bothFindTheEndpointsInTheSameRecords() throws Exception {
        Prerequisites.optional(canUseOwnResolvConf(), "root: a private mount namespace and port 53 on a loopback address");
        InetAddress address = InetAddress.getByName("127." + ThreadLocalRandom.current().nextInt(100, 200) + "."
                + ThreadLocalRandom.current().nextInt(0, 256) + "." + ThreadLocalRandom.current().nextInt(1, 255));
        Path dir = TempDirs.create("etcdctl-srv-it-");
        try (TestDnsServer dns = new TestDnsServer(address); RealEtcd etcd = RealEtcd.start("srv")) {
            Path resolv = dir.resolve("resolv.conf");
            Files.writeString(resolv, dns.resolvConf());
            dns.addSrv("_etcd-client._tcp.example.test", "localhost.", etcd.clientPort);
            dns.addSrv("_etcd-client-blue._tcp.example.test", "localhost.", etcd.clientPort);
            dns.addA("localhost", "127.0.0.1");
            String port = Integer.toString(etcd.clientPort);
            List<List<String>> cases = List.of(
                    List.of("--discovery-srv=example.test", "put", "srv-key", "found"),
                    List.of("--discovery-srv=example.test", "--discovery-srv-name=blue", "get", "srv-key"),
                    List.of("--discovery-srv=example.test", "endpoint", "health", "--cluster"),
                    // the note about the http record; then TLS, verified against the domain, which this
                    // plaintext member does not speak
                    List.of("-d", "example.test", "--insecure-discovery=false", "--endpoints=127.0.0.1:" + port,
                            "--command-timeout=1s", "get", "srv-key", "--print-value-only"),
                    List.of("--discovery-srv=nothing.test", "get", "srv-key"));
            for (List<String> args : cases) {
                String real = run(resolv, RealEtcd.ETCDCTL.toString(), args).replace(port, "PORT");
                String ours = run(resolv, OURS.toString(), args).replace(port, "PORT");
                assertEquals(real, ours, "etcdctl " + String.join(" ", args));
            }
        } finally {
            TempDirs.delete(dir);
        }
    }

    /** Runs one etcdctl with {@code resolv} as its /etc/resolv.conf; exit code, stdout and stderr, timings masked. */
    private static String run(Path resolv, String etcdctl, List<String> args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("unshare", "-m", "sh", "-c",
                "mount --bind \"$0\" /etc/resolv.conf && exec \"$@\"", resolv.toString(), etcdctl));
        cmd.addAll(args);
        Command.Result r = RealEtcd.realEtcdctl(cmd).env("ETCDJ_NO_DAEMON", "1").run();
        return ("exit " + r.exitCode() + "\nstdout:\n" + r.stdout() + "stderr:\n" + r.stderr())
                .replaceAll("took = [0-9.]+[a-zµ]+", "took = T").replaceAll("\"ts\":\"[^\"]+\"", "\"ts\":\"T\"")
                .replaceAll("client-[0-9a-f-]{36}", "client-ID");
    }

    private static boolean canUseOwnResolvConf() throws InterruptedException {
        try {
            return Command.of("unshare", "-m", "true").run().exitCode() == 0 && "root".equals(System.getProperty("user.name"));
        } catch (IOException e) {
            return false;
        }
    }
}
