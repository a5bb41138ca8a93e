package io.etcdj.server.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code etcd gateway start} or {@code etcd grpc-proxy start} as a process, ours or etcd 3.4's,
 * listening on a free loopback port. Its output goes to a log file in its own temp dir; closing
 * stops the process and deletes the dir.
 */
final class ProxyProcess implements AutoCloseable {
    private static final long START_TIMEOUT_MS = 60_000;
    /** Replaced in flags by the proxy's own address (for --advertise-client-url). */
    static final String LISTEN = "{listen}";

    private final EtcdProcess.Binary binary;
    private final Path home = TempDirs.create("etcd-proxy-it-");
    private final Path logFile = home.resolve("proxy.log");
    private final int port = FreePorts.pick();
    private Process process;

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
            p.launch(kind, jvmOptions, flags);
            p.awaitReady(readyLine);
            return p;
        } catch (IOException | InterruptedException | RuntimeException | Error e) {
            p.close();
            throw e;
        }
    }

    private void launch(String kind, List<String> jvmOptions, String... flags) throws IOException {
        List<String> cmd = new ArrayList<>();
        if (binary == EtcdProcess.Binary.OURS) {
            cmd.addAll(EtcdProcess.ourEtcdCommand(jvmOptions));
        } else {
            cmd.add(EtcdProcess.REAL_ETCD.toString());
        }
        cmd.addAll(List.of(kind, "start", "--listen-addr=" + endpoint()));
        for (String f : flags) {
            cmd.add(f.replace(LISTEN, endpoint()));
        }
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                .directory(home.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("ETCD"));
        process = pb.start();
    }

    private void awaitReady(String readyLine) throws IOException, InterruptedException {
        long deadline = System.currentTimeMillis() + START_TIMEOUT_MS;
        while (System.currentTimeMillis() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException(binary + " " + "proxy exited with " + process.exitValue() + "; log:\n" + log());
            }
            if (log().contains(readyLine) && acceptsConnections()) {
                return;
            }
            Thread.sleep(50);
        }
        throw new IllegalStateException(binary + " proxy not ready after " + START_TIMEOUT_MS + " ms; log:\n" + log());
    }

    private boolean acceptsConnections() {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
            return true;
        } catch (IOException e) {
            return false;
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
            if (process != null && process.isAlive()) {
                process.destroy();
                if (!process.waitFor(10, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        } finally {
            TempDirs.delete(home);
        }
    }
}
