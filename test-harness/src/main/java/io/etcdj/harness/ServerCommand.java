package io.etcdj.harness;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Which etcd a test runs, as the command line up to etcd's own arguments: our server from the
 * packaged build, our server through a {@code bin/} script, or the real etcd 3.4.
 */
public abstract class ServerCommand {
    /** The installed reference server (etcd 3.4); {@code $ETCD} names another. */
    public static final Path REAL_ETCD = Path.of(System.getenv().getOrDefault("ETCD", "/usr/bin/etcd"));
    /** The real etcdctl that goes with it. */
    public static final Path REAL_ETCDCTL = Path.of("/usr/bin/etcdctl");

    private final String label;

    private ServerCommand(String label) {
        this.label = label;
    }

    /** "ours" or "etcd 3.4", for messages. */
    public String label() {
        return label;
    }

    /** Whether this is the real etcd (3.4 logs no "ready to serve" line with the zap logger). */
    public abstract boolean isRealEtcd();

    /** The command up to etcd's arguments; {@code jvmOptions} go to our server's JVM and are ignored by etcd. */
    public abstract List<String> prefix(List<String> jvmOptions);

    /** The real etcd at {@link #REAL_ETCD}; starting it fails, saying what to install, when it is not there. */
    public static ServerCommand realEtcd() {
        return new ServerCommand("etcd 3.4") {
            @Override
            public boolean isRealEtcd() {
                return true;
            }

            @Override
            public List<String> prefix(List<String> jvmOptions) {
                Prerequisites.requireExecutable(REAL_ETCD, "etcd-server (or name one with $ETCD)");
                return List.of(REAL_ETCD.toString());
            }
        };
    }

    /**
     * Our server as bin/etcd runs it, from the packaged module (its runtime jar, or its jar and
     * target/lib, and the AppCDS archive recorded at package time, when present), plus a heap cap:
     * the tests share a small machine.
     */
    public static ServerCommand ours() {
        Path target = projectRoot().resolve("etcd-server").resolve("target");
        return new ServerCommand("ours") {
            @Override
            public boolean isRealEtcd() {
                return false;
            }

            @Override
            public List<String> prefix(List<String> jvmOptions) {
                List<String> cmd = new ArrayList<>();
                cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
                // as bin/run-module: JVM warnings (such as a stale CDS archive) must not reach stdout
                cmd.addAll(List.of("-Xlog:disable", "-Xlog:all=warning,cds=off,cds+dynamic=off:stderr"));
                cmd.addAll(List.of("-Xmx384m", "-XX:TieredStopAtLevel=1",
                        "--add-opens", "java.base/java.nio=ALL-UNNAMED",
                        "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED"));
                cmd.addAll(jvmOptions);
                Path archive = target.resolve("app.jsa");
                if (Files.exists(archive)) {
                    cmd.addAll(List.of("-XX:SharedArchiveFile=" + archive, "-Xshare:auto"));
                }
                Path runtimeJar = target.resolve("etcd-server-runtime.jar");
                String classPath = Files.exists(runtimeJar) ? runtimeJar.toString()
                        : serverJar(target) + File.pathSeparator + target.resolve("lib") + "/*";
                cmd.addAll(List.of("-cp", classPath, "io.etcdj.server.Main"));
                return cmd;
            }
        };
    }

    /** A launcher script that takes etcd's flags, such as the project's {@code bin/etcd}. */
    public static ServerCommand script(Path script) {
        return new ServerCommand("ours (" + script.getFileName() + ")") {
            @Override
            public boolean isRealEtcd() {
                return false;
            }

            @Override
            public List<String> prefix(List<String> jvmOptions) {
                return List.of(script.toString());
            }
        };
    }

    /** The checkout's root: the nearest directory at or above the working directory with bin/etcd. */
    public static Path projectRoot() {
        Path dir = Path.of(System.getProperty("user.dir")).toAbsolutePath();
        for (Path d = dir; d != null; d = d.getParent()) {
            if (Files.exists(d.resolve("bin").resolve("etcd")) && Files.isDirectory(d.resolve("etcd-server"))) {
                return d;
            }
        }
        throw new IllegalStateException("no checkout (bin/etcd and etcd-server/) at or above " + dir);
    }

    private static Path serverJar(Path target) {
        try (var files = Files.list(target)) {
            return files.filter(p -> p.getFileName().toString().matches("etcd-server-.*(?<!-tests)\\.jar"))
                    .findFirst()
                    .orElseThrow(() -> new IllegalStateException("no server jar in " + target
                            + "; run the package phase first"));
        } catch (IOException e) {
            throw new UncheckedIOException("no server build in " + target + "; run the package phase first", e);
        }
    }

    @Override
    public String toString() {
        return label;
    }
}
