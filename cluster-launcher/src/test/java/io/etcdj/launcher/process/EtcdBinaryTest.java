package io.etcdj.launcher.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.launcher.LauncherException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EtcdBinaryTest {
    @TempDir Path dir;
    Path home;
    Path own;
    Path onPath;

    @BeforeEach
    void binaries() throws Exception {
        home = dir.resolve("home");
        own = executable(home.resolve("bin").resolve("etcd"));
        onPath = executable(dir.resolve("path").resolve("etcd"));
    }

    private static Path executable(Path p) throws Exception {
        Files.createDirectories(p.getParent());
        Files.writeString(p, "#!/bin/sh\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        return p;
    }

    @Test
    void precedence() {
        Map<String, String> env = Map.of("PATH", onPath.getParent().toString(), "ETCD_BIN", onPath.toString());
        assertEquals("--etcd-binary", EtcdBinary.resolve(Optional.of(own.toString()), env, Optional.empty(),
                Optional.of(home), dir).origin());
        assertEquals("ETCD_BIN", EtcdBinary.resolve(Optional.empty(), env, Optional.of(own.toString()),
                Optional.of(home), dir).origin());
        Map<String, String> noEnvBin = Map.of("PATH", onPath.getParent().toString());
        assertEquals(own, EtcdBinary.resolve(Optional.empty(), noEnvBin, Optional.of("home/bin/etcd"),
                Optional.empty(), dir).path());
        assertEquals(own, EtcdBinary.resolve(Optional.empty(), noEnvBin, Optional.empty(), Optional.of(home), dir).path());
        EtcdBinary fallback = EtcdBinary.resolve(Optional.empty(), noEnvBin, Optional.empty(), Optional.of(dir), dir);
        assertEquals(onPath, fallback.path());
        assertTrue(fallback.origin().contains("PATH"), fallback.origin());
    }

    @Test
    void missingBinaryIsAClearError() {
        LauncherException e = assertThrows(LauncherException.class, () -> EtcdBinary.resolve(
                Optional.of(dir.resolve("nope").toString()), Map.of(), Optional.empty(), Optional.empty(), dir));
        assertEquals("etcd binary " + dir.resolve("nope") + " (from --etcd-binary) does not exist", e.getMessage());
        LauncherException none = assertThrows(LauncherException.class, () -> EtcdBinary.resolve(
                Optional.empty(), Map.of("PATH", dir.resolve("empty").toString()), Optional.empty(), Optional.empty(), dir));
        assertTrue(none.getMessage().startsWith("no etcd binary found"), none.getMessage());
    }
}
