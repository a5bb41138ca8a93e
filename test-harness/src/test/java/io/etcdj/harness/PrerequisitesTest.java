package io.etcdj.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.opentest4j.TestAbortedException;

/** The skip policy: what .ci/run installs fails the test naming the package; only the environment skips. */
class PrerequisitesTest {
    @Test
    void aMissingToolFailsTheTestNamingThePackageToInstall() {
        AssertionError e = assertThrows(AssertionError.class,
                () -> Prerequisites.requireCommand("etcdj-no-such-tool", "etcdj-tools"));
        assertEquals("this test needs the command etcdj-no-such-tool on the PATH: install the Debian package etcdj-tools"
                + " (.ci/run installs it)", e.getMessage());
        AssertionError file = assertThrows(AssertionError.class,
                () -> Prerequisites.requireExecutable(Path.of("/nonexistent/etcd"), "etcd-server"));
        assertTrue(file.getMessage().contains("install the Debian package etcd-server"), file.getMessage());
    }

    @Test
    void anInstalledToolIsFoundOnThePath() {
        assertEquals("sh", Prerequisites.requireCommand("sh", "dash").getFileName().toString());
    }

    @Test
    void missingEnvironmentSkipsSayingWhy() {
        TestAbortedException e = assertThrows(TestAbortedException.class, () -> Prerequisites.optional(false, "root"));
        assertEquals("Assumption failed: skipped: needs root", e.getMessage());
        Prerequisites.optional(true, "root");
    }
}
