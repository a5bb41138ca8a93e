package io.etcdj.ctl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.harness.Command;
import io.etcdj.harness.Eventually;
import io.etcdj.harness.StrayProcesses;
import io.etcdj.harness.TempDirs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The fast part of etcd 3.4's own end-to-end suite (its {@code tests/e2e}, built by
 * {@code scripts/build-etcd-e2e.sh}), one process per test as its {@code e2e-each} runs them: our
 * etcd with the real etcdctl, and the real etcd with our etcdctl. The selection covers put, get,
 * delete, txn, leases, watch, members, auth, snapshots (TestIssue6361: our member started on a data
 * dir the real etcdctl restored), TLS, the JSON and TCP gateways; docs/compatibility.md has
 * the full run and the tests that stay red by design. Our etcdctl runs as a user's shell runs it,
 * on the warm path, and again a JVM per call for the tests that depend on how soon it is up. A
 * failure names every failing test with the suite's first error line for it.
 */
class EtcdE2eFastIT {
    /** Where the build script puts the suite ({@code $E2E}, else its default). */
    static final Path SUITE = Path.of(System.getenv().getOrDefault("E2E",
            Path.of(System.getProperty("user.home"), ".cache", "etcd-e2e").toString()));
    /** Seconds one test may take before e2e-each stops it (a 3-member cluster of ours starts in a few). */
    private static final String PER_TEST_SECONDS = "150";

    /** Our server, the real etcdctl: what etcd's tests check of a server. */
    static final List<String> OUR_ETCD = List.of("TestCtlV3Put", "TestCtlV3Get", "TestCtlV3Del", "TestCtlV3PutClientTLS",
            "TestV3CurlTxn", "TestCtlV3LeaseGrantTimeToLive", "TestCtlV3Watch", "TestCtlV3MemberAdd",
            "TestCtlV3AuthWriteKey", "TestCtlV3Snapshot", "TestIssue6361", "TestGateway", "TestCtlV3MemberRemove");
    /**
     * The real etcd, our etcdctl: what etcd's tests check of a client. Not here: the watch tests,
     * which run one etcdctl per case against a 15 s limit and are too slow for it while another
     * build runs (docs/compatibility.md).
     */
    static final List<String> OUR_ETCDCTL = List.of("TestCtlV3Put", "TestCtlV3Get", "TestCtlV3Del",
            "TestCtlV3LeaseGrantTimeToLive", "TestCtlV3LeaseRevoke", "TestCtlV3MemberList", "TestCtlV3AuthEnable",
            "TestCtlV3Snapshot", "TestCtlV3TxnInteractiveSuccess", "TestCtlV3Lock", "TestCtlV3AuthPrefixPerm",
            "TestV3MetricsInsecure");

    /**
     * Our etcdctl a JVM per call (ETCDJ_NO_DAEMON=1, the warm path off): lock's Ctrl-C comes about
     * 200 ms after the start, while that JVM is still parsing its command line.
     */
    static final List<String> OUR_ETCDCTL_JVM_PER_CALL = List.of("TestCtlV3Lock", "TestCtlV3Put", "TestCtlV3MemberList");

    private final List<Path> binDirs = new ArrayList<>();
    private Path warmDir;

    @AfterEach
    void removeBinDirs() throws IOException {
        for (Path d : binDirs) {
            Files.deleteIfExists(d.resolve("etcd"));
            Files.deleteIfExists(d.resolve("etcdctl"));
            Files.deleteIfExists(d);
        }
        if (warmDir != null) {
            StrayProcesses.stopAllUnder(warmDir);
            TempDirs.delete(warmDir);
        }
    }

    @Test
    void ourEtcdWithTheRealEtcdctl() throws Exception {
        run("our etcd with the real etcdctl", binDir(OurMembers.ROOT.resolve("bin/etcd"), RealEtcd.ETCDCTL), OUR_ETCD, Map.of());
    }

    /**
     * As a user's shell runs our etcdctl: the warm path on, its server in a directory of this test's
     * and started before the suite (a user's first call starts it), stopped after.
     */
    @Test
    void theRealEtcdWithOurEtcdctl() throws Exception {
        warmDir = TempDirs.create("etcd-e2e-warm-");
        Map<String, String> warm = Map.of("ETCDJ_NO_DAEMON", "", "ETCDJ_WARM_DIR", warmDir.toString());
        Path etcdctl = OurMembers.ROOT.resolve("bin/etcdctl");
        Command.of(etcdctl.toString(), "version").env(warm).timeout(Duration.ofSeconds(60)).run();
        // with a JVM flag that does not exist, only the warm path can answer
        Command.Result up = Eventually.poll(Duration.ofSeconds(60), Duration.ofMillis(200),
                () -> Command.of(etcdctl.toString(), "version").env(warm).env("JAVA_OPTS", "-XX:+ThisOptionDoesNotExist")
                        .timeout(Duration.ofSeconds(30)).run(),
                r -> r.exitCode() == 0);
        assertEquals(0, up.exitCode(), "the warm server never answered: " + up.stderr());
        run("the real etcd with our etcdctl", binDir(RealEtcd.ETCD, etcdctl), OUR_ETCDCTL, warm);
    }

    @Test
    void theRealEtcdWithOurEtcdctlAJvmPerCall() throws Exception {
        run("the real etcd with our etcdctl, a JVM per call", binDir(RealEtcd.ETCD, OurMembers.ROOT.resolve("bin/etcdctl")),
                OUR_ETCDCTL_JVM_PER_CALL, Map.of("ETCDJ_NO_DAEMON", "1"));
    }

    /**
     * The suite takes etcd and etcdctl from one directory (-bin-dir). Each is a two-line script that
     * runs the real program: our bin/ scripts find their helpers beside themselves, which a
     * symbolic link elsewhere would hide.
     */
    private Path binDir(Path etcd, Path etcdctl) throws IOException {
        Path d = Files.createTempDirectory("etcd-e2e-bin-");
        binDirs.add(d);
        launcher(d.resolve("etcd"), etcd);
        launcher(d.resolve("etcdctl"), etcdctl);
        return d;
    }

    private static void launcher(Path file, Path target) throws IOException {
        Files.writeString(file, "#!/bin/sh\nexec '" + target.toAbsolutePath() + "' \"$@\"\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    private static void run(String which, Path binDir, List<String> tests, Map<String, String> env) throws Exception {
        RealEtcd.requireInstalled();
        Path each = SUITE.resolve("bin").resolve("e2e-each");
        if (!Files.isExecutable(each)) {
            throw new IllegalStateException("this test needs etcd's e2e suite built at " + SUITE
                    + ": run scripts/build-etcd-e2e.sh as root (apt-get; .ci/run does), or set E2E to where it was built");
        }
        requireNoOtherRun();
        long bound = (Long.parseLong(PER_TEST_SECONDS) + 20) * tests.size();
        // past the bound the run fails with its output, the suite and its members killed
        String out = Command.of(each.toString(), binDir.toString(), "^(" + String.join("|", tests) + ")$")
                .env(env).env("E2E_EACH_S", PER_TEST_SECONDS).mergeStderr().timeout(Duration.ofSeconds(bound)).run().stdout();
        List<String> lines = out.lines().toList();
        List<String> failed = lines.stream().filter(l -> l.startsWith("FAIL ")).toList();
        assertTrue(failed.isEmpty(), failed.size() + " of " + tests.size() + " of etcd's e2e tests failed, " + which + ":\n"
                + String.join("\n", failed));
        List<String> passed = lines.stream().filter(l -> l.startsWith("PASS ")).map(l -> l.split(" ")[1]).sorted().toList();
        assertEquals(tests.stream().sorted().toList(), passed, "every selected test ran and passed:\n" + String.join("\n", lines));
    }

    /** The suite's members listen on fixed ports from 20000: a second run at the same time fails at random. */
    private static void requireNoOtherRun() {
        List<String> others = ProcessHandle.allProcesses()
                .filter(h -> h.info().command().map(c -> c.endsWith("etcd-e2e.test")).orElse(false))
                .map(h -> h.pid() + " " + h.info().commandLine().orElse(""))
                .toList();
        if (!others.isEmpty()) {
            throw new IllegalStateException("another run of etcd's e2e suite is active (its members use fixed ports "
                    + "from 20000; one run at a time): " + others);
        }
    }
}
