package io.etcdj.launcher.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.cli.ExitCodes;
import io.etcdj.format.GoBytes;
import io.etcdj.launcher.Main;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Commands that need no running cluster, run in-process with captured output. */
class CommandLineTest {
    @TempDir Path dir;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        LauncherContext ctx = new LauncherContext(Map.of("PATH", ""), dir, Optional.empty(),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return Main.run(ctx, args);
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void helpListsOnlyUserCommands() {
        assertEquals(0, run("--help"));
        for (String command : List.of("up", "stop", "restart", "kill", "pause", "resume", "status", "logs", "env",
                "add-member", "promote", "remove-member", "partition", "delay", "heal", "clean")) {
            assertTrue(out().contains("  " + command), command + " missing from:\n" + out());
        }
        assertFalse(out().contains("__supervise"));
    }

    @Test
    void envWithoutARunningClusterUsesTheFile() {
        assertEquals(0, run("env"));
        assertEquals("export ETCDCTL_API=3\n"
                + "export ETCDCTL_ENDPOINTS=http://127.0.0.1:2379,http://127.0.0.1:22379,http://127.0.0.1:32379\n", out());
    }

    @Test
    void clusterFileMayComeBeforeTheCommandAsWithGoreman() throws Exception {
        Files.writeString(dir.resolve("Procfile"),
                "etcd1: bin/etcd --name infra1 --listen-client-urls http://127.0.0.1:5001 --listen-peer-urls http://127.0.0.1:5002\n");
        assertEquals(0, run("-f", "Procfile", "env"));
        assertTrue(out().endsWith("export ETCDCTL_ENDPOINTS=http://127.0.0.1:5001\n"), out());
    }

    @Test
    void commandsThatNeedAClusterSaySoWhenNoneRuns() {
        assertEquals(ExitCodes.NOT_RUNNING, run("status"));
        assertEquals("Error: no cluster is running in " + dir.resolve("local-cluster.etcd")
                + " (start one with: cluster-launcher up)\n", err());
    }

    @Test
    void badClusterFileGivesLineAndExitCode() throws Exception {
        Files.writeString(dir.resolve("c.yml"), "members:\n  a:\n    client-url: nonsense\n");
        assertEquals(ExitCodes.BAD_CLUSTER_FILE, run("up", "-f", "c.yml"));
        assertTrue(err().startsWith("Error: " + dir.resolve("c.yml") + ":3: client-url: URL scheme must be http or https"), err());
    }

    @Test
    void missingEtcdBinaryIsReportedBeforeAnythingStarts() throws Exception {
        assertEquals(ExitCodes.ERROR, run("up", "--etcd-binary", dir.resolve("no-etcd").toString()));
        assertEquals("Error: etcd binary " + dir.resolve("no-etcd") + " (from --etcd-binary) does not exist\n", err());
        assertFalse(Files.exists(dir.resolve("local-cluster.etcd")), "nothing was created");
    }

    @Test
    void cleanWithNothingToClean() {
        assertEquals(0, run("clean"));
        assertEquals("nothing to clean in " + dir.resolve("local-cluster.etcd") + "\n", out());
    }

    @Test
    void usageErrors() {
        assertEquals(ExitCodes.USAGE, run("restart"));
        assertTrue(err().contains("Missing required parameter: 'NAME'"), err());
    }

    @Test
    void envQuotesOnlyWhatNeedsIt() {
        assertEquals("/a/b.pem", EnvCommand.shellQuote("/a/b.pem"));
        assertEquals("'/my certs/it'\\''s.pem'", EnvCommand.shellQuote("/my certs/it's.pem"));
    }

    @Test
    void humanBytesLikeEtcdctl() {
        assertEquals("0 B", GoBytes.format(0));
        assertEquals("20 kB", GoBytes.format(20480));
        assertEquals("25 kB", GoBytes.format(24576));
        assertEquals("1.0 MB", GoBytes.format(1_000_000));
        assertEquals("2.1 GB", GoBytes.format(2_147_483_648L));
    }
}
