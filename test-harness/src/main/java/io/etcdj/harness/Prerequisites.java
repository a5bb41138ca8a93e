package io.etcdj.harness;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;

/**
 * The one skip policy of the project's tests (docs/testing.md, "Prerequisites"): a tool that
 * .ci/run installs (etcd 3.4, etcdctl, openssl, curl, gcc, FUSE's tools) is required, and a test
 * without it fails with the Debian package to install; only what no package gives (root, a
 * device, kernel features) is optional, and a test without it is skipped with the reason in
 * JUnit's report. No test skips silently or returns early.
 */
public final class Prerequisites {
    private Prerequisites() {
    }

    /** Fails the test unless {@code executable} exists: .ci/run installs it from {@code debianPackage}. */
    public static void requireExecutable(Path executable, String debianPackage) {
        if (!Files.isExecutable(executable)) {
            throw new MissingPrerequisite("this test needs " + executable + ": install the Debian package "
                    + debianPackage + " (.ci/run installs it)");
        }
    }

    /** Fails the test unless {@code command} is on the PATH: .ci/run installs it from {@code debianPackage}. */
    public static Path requireCommand(String command, String debianPackage) {
        Path found = onPath(command);
        if (found == null) {
            throw new MissingPrerequisite("this test needs the command " + command + " on the PATH: install the Debian package "
                    + debianPackage + " (.ci/run installs it)");
        }
        return found;
    }

    /** Fails the test with {@code problem} when it is not null: a prerequisite .ci/run provides is missing. */
    public static void require(String problem) {
        if (problem != null) {
            throw new MissingPrerequisite("this test needs " + problem + " (.ci/run installs it)");
        }
    }

    /**
     * Skips the test unless {@code available}: for an environment no package gives (root, a
     * device, a kernel feature). The report says "skipped: needs {@code what}".
     */
    public static void optional(boolean available, String what) {
        Assumptions.assumeTrue(available, () -> "skipped: needs " + what);
    }

    /** The executable named {@code command} in a PATH directory, or null. */
    public static Path onPath(String command) {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, command))) {
                return Path.of(dir, command);
            }
        }
        return null;
    }

    /** A prerequisite the CI image installs is missing: the test fails (never skips) with what to install. */
    public static final class MissingPrerequisite extends AssertionError {
        private static final long serialVersionUID = 1L;

        MissingPrerequisite(String message) {
            super(message);
        }
    }
}
