package io.etcdj.server.it;

import io.etcdj.harness.EtcdProcess;
import io.etcdj.harness.FreePorts;
import io.etcdj.harness.LoggedProcess;
import io.etcdj.harness.TempDirs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code etcd gateway start} or {@code etcd grpc-proxy start} as a process, ours or etcd 3.4's,
 * listening on a free loopback port. Its output goes to a log file in its own temp dir; closing
 * stops the process and deletes the dir.
 */
final class ProxyProcess implements AutoCloseable {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    /** Replaced in flags by the proxy's own address (for --advertise-client-url). */
    static final String LISTEN = "{listen}";

    private final EtcdProcess.Binary binary;
    private final Path home = TempDirs.create("etcd-proxy-it-");
    private final Path logFile = home.resolve("proxy.log");
    private final int port = FreePorts.pick();
    private LoggedProcess process;

    private ProxyProcess(EtcdProcess.Binary binary) {
        this.binary = binary;
    }

    /**
     * Starts {@code etcd <kind> start --listen-addr=... <flags>} and waits until it logged
     * {@code readyLine} and accepts connections.
     */
    static ProxyProcess start(EtcdProcess.Binary binary, String kind, String readyLine, List<String> jvmOptions,
            String... flags) throws IOException, InterruptedException {
        ProxyProcess p = new ProxyProcess(binary);
        try {
            List<String> cmd = new ArrayList<>(binary.command().prefix(jvmOptions));
            cmd.addAll(List.of(kind, "start", "--listen-addr=" + p.endpoint()));
            for (String f : flags) {
                cmd.add(f.replace(LISTEN, p.endpoint()));
            }
            p.process = LoggedProcess.start(binary + " proxy", cmd, p.logFile, p.home, Map.of());
            p.process.awaitLogLineAndPort(readyLine, p.port, START_TIMEOUT);
            return p;
        } catch (IOException | InterruptedException | RuntimeException | Error e) {
            p.close();
            throw e;
        }
    }

    String endpoint() {
        return "127.0.0.1:" + port;
    }

    int port() {
        return port;
    }

    /** Everything the process printed so far. */
    String log() {
        try {
            return Files.exists(logFile) ? Files.readString(logFile, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        try {
            if (process != null) {
                process.close();
            }
        } finally {
            TempDirs.delete(home);
        }
    }
}
