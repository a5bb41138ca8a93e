package io.etcdj.launcher.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.etcdj.harness.Command;
import io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.NettyChannelBuilder;
import java.io.File;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code tls: true}: certificates generated with the certs module, https on client and peer URLs
 * with client-certificate auth, and {@code env} giving etcdctl everything it needs.
 */
class TlsClusterIT {
    @Test
    void tlsClusterServesEtcdctlWithTheExportedSettings() throws Exception {
        try (LauncherHarness h = new LauncherHarness()) {
            h.write("cluster.yml", h.yaml(3, "tls: true"));
            h.run("up", "-d", "-f", "cluster.yml").expectOk();
            String status = h.run("status", "-f", "cluster.yml").expectOk().out();
            assertEquals(3, status.lines().filter(l -> l.startsWith("| m") && l.contains("https://")
                    && l.contains("running")).count(), status);

            Map<String, String> env = new HashMap<>();
            for (String line : h.run("env", "-f", "cluster.yml").expectOk().out().lines().toList()) {
                String assignment = line.substring("export ".length());
                env.put(assignment.substring(0, assignment.indexOf('=')), assignment.substring(assignment.indexOf('=') + 1));
            }
            assertEquals(List.of("ETCDCTL_API", "ETCDCTL_CACERT", "ETCDCTL_CERT", "ETCDCTL_ENDPOINTS", "ETCDCTL_KEY"),
                    env.keySet().stream().sorted().toList());
            assertEquals("OK", etcdctl(env, "put", "secure", "yes").strip());

            String m3 = h.state().member("m3").orElseThrow().clientUrls().get(0);
            URI u = URI.create(m3);
            var channel = NettyChannelBuilder.forAddress(u.getHost(), u.getPort())
                    .sslContext(GrpcSslContexts.forClient().trustManager(new File(env.get("ETCDCTL_CACERT")))
                            .keyManager(new File(env.get("ETCDCTL_CERT")), new File(env.get("ETCDCTL_KEY"))).build())
                    .build();
            try (Kv kv = new Kv(channel)) {
                assertEquals("yes", kv.get("secure", 5).orElseThrow());
            }
            h.run("stop", "-f", "cluster.yml").expectOk();
        }
    }

    private static String etcdctl(Map<String, String> env, String... args) throws Exception {
        String binary = System.getProperty("launcher.etcdctl", "/usr/bin/etcdctl");
        List<String> cmd = new ArrayList<>(List.of(binary));
        cmd.addAll(List.of(args));
        Command.Result r = Command.of(cmd).env(env).mergeStderr().timeout(Duration.ofSeconds(30)).run();
        assertEquals(0, r.exitCode(), r.stdout());
        return r.stdout();
    }
}
