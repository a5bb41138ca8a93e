package io.etcdj.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.harness.Command;
import io.etcdj.harness.ServerCommand;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * bin/etcd as a user runs it after the build: from the one jar that holds the member's class path,
 * with the class-data archive the build recorded for exactly that class path.
 */
class LauncherIT {
    private static final Path ETCD = ServerCommand.projectRoot().resolve("bin").resolve("etcd");

    @Test
    void theArchiveTheBuildMadeFitsTheClassPathBinEtcdRuns() throws Exception {
        // -Xshare:on: the JVM refuses to start when the archive does not fit, instead of skipping it
        Command.Result r = Command.of(ETCD.toString(), "--version").env("JAVA_OPTS", "-Xshare:on").run();
        assertEquals(0, r.exitCode(), r.stderr());
        assertTrue(r.stdout().startsWith("etcd Version: 3.6.0\n"), r.stdout());
        assertEquals("", r.stderr());
    }

    @Test
    void theCallersShareSettingWinsOverTheLaunchers() throws Exception {
        // an archive that does not exist: with -Xshare:on from JAVA_OPTS the JVM must refuse it, which
        // it does only if the launcher's own -Xshare:auto does not come after the caller's flags
        Command.Result r = Command.of(ETCD.toString(), "--version")
                .env("JAVA_OPTS", "-XX:SharedArchiveFile=/nonexistent/etcd.jsa -Xshare:on").run();
        assertTrue(r.exitCode() != 0, "the JVM started without the archive it was told to require: " + r.stdout());
    }
}
