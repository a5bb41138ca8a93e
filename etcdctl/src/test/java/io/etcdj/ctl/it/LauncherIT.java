package io.etcdj.ctl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.harness.Command;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A few runs through bin/etcdctl (the packaged jar, its class path and AppCDS archive) next to the
 * real etcdctl on one etcd, including the ETCDCTL_* environment rules that need a real process.
 */
class LauncherIT {

    private static final Path LAUNCHER = Path.of("..", "bin", "etcdctl").toAbsolutePath().normalize();
    private static RealEtcd etcd;

    @BeforeAll
    static void start() throws Exception {
        if (!Files.isExecutable(LAUNCHER)) {
            throw new IllegalStateException("bin/etcdctl not found at " + LAUNCHER);
        }
        etcd = RealEtcd.start("launcher");
    }

    @AfterAll
    static void stop() {
        if (etcd != null) {
            etcd.close();
        }
    }

    private static Differ.Result exec(String binary, Map<String, String> env, String... args)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(binary));
        cmd.addAll(List.of(args));
        Command.Result r = RealEtcd.realEtcdctl(cmd).env(env).run();
        String out = r.stdout();
        int code = r.exitCode();
        String e = r.stderr()
                .replaceAll("(?m)^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d{6} ", "<TIME> ")
                .replaceAll("\"ts\":\"[^\"]+\"", "\"ts\":\"<TS>\"")
                .replaceAll("client-[0-9a-f-]{36}", "client-<UUID>");
        return new Differ.Result(out, e, code);
    }

    private static void same(Map<String, String> env, String... args) throws Exception {
        Differ.Result expected = exec(RealEtcd.ETCDCTL.toString(), env, args);
        // help pages are 3.4's apart from the global flags etcdctl 3.6 added (NewerFlagsIT checks those)
        Differ.Result actual = DifferentialSteps.withoutNewerGlobalFlagLines(exec(LAUNCHER.toString(), env, args));
        assertEquals(expected.toString(), actual.toString());
    }

    @Test
    void readsWhatTheRealEtcdctlWrote() throws Exception {
        exec(RealEtcd.ETCDCTL.toString(), Map.of(), "--endpoints=" + etcd.endpoint(), "put", "launch", "ok");
        same(Map.of(), "--endpoints=" + etcd.endpoint(), "get", "launch");
        same(Map.of(), "--endpoints=" + etcd.endpoint(), "get", "launch", "-w", "json");
        same(Map.of(), "version");
    }

    @Test
    void environmentVariablesActAsFlags() throws Exception {
        same(Map.of("ETCDCTL_ENDPOINTS", etcd.endpoint(), "ETCDCTL_WRITE_OUT", "fields"), "get", "launch");
        same(Map.of("ETCDCTL_ENDPOINTS", etcd.endpoint(), "ETCDCTL_HEX", "true"), "--hex", "get", "launch");
        same(Map.of("ETCDCTL_ENDPOINTS", etcd.endpoint(), "ETCDCTL_NOPE", "1"), "get", "launch");
    }

    @Test
    void errorsAndExitCodesMatch() throws Exception {
        same(Map.of(), "--endpoints=" + etcd.endpoint(), "get");
        same(Map.of(), "--endpoints=" + etcd.endpoint(), "put", "--bogus");
        same(Map.of(), "--endpoints=" + etcd.endpoint(), "lease", "revoke", "ffff");
        same(Map.of(), "--endpoints=127.0.0.1:1", "--command-timeout=1s", "endpoint", "health");
        Differ.Result r = exec(LAUNCHER.toString(), Map.of(), "--endpoints=127.0.0.1:1", "--command-timeout=1s",
                "get", "a");
        assertEquals(1, r.code());
        assertTrue(r.err().endsWith("Error: context deadline exceeded\n"), r.toString());
    }
}
