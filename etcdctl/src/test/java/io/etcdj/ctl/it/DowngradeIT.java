package io.etcdj.ctl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.ctl.RootCommand;
import io.etcdj.ctl.cli.EtcdctlApp;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * downgrade is an etcdctl 3.6 command; the etcd 3.4 at hand has no Downgrade RPC, so this checks the
 * argument errors and that the server's refusal is reported the way the Go client reports unknown
 * gRPC errors.
 */
class DowngradeIT {

    private static RealEtcd etcd;

    @BeforeAll
    static void start() throws Exception {
        etcd = RealEtcd.start("downgrade");
    }

    @AfterAll
    static void stop() {
        if (etcd != null) {
            etcd.close();
        }
    }

    private static Differ.Result ours(String... args) {
        List<String> all = new ArrayList<>(List.of("--endpoints=" + etcd.endpoint()));
        all.addAll(List.of(args));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = new EtcdctlApp(RootCommand::tree).run(all.toArray(new String[0]),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                new ByteArrayInputStream(new byte[0]), Map.of());
        return new Differ.Result(out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8), code);
    }

    @Test
    void validatesArguments() {
        assertEquals(new Differ.Result("", "Error: TARGET_VERSION not provided\n", 128).toString(),
                ours("downgrade", "validate").toString());
        assertEquals(new Differ.Result("", "Error: too many arguments\n", 128).toString(),
                ours("downgrade", "enable", "3.5", "3.4").toString());
    }

    @Test
    void reportsTheServersRefusalAsAGrpcError() {
        Differ.Result r = ours("downgrade", "validate", "3.3");
        assertEquals(1, r.code(), r.toString());
        assertTrue(r.err().endsWith("Error: rpc error: code = Unimplemented desc = unknown method Downgrade for service "
                + "etcdserverpb.Maintenance\n"), r.toString());
    }
}
