package io.etcdj.robustness;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One member process: ours (the project's bin/etcd) or the real etcd, with its client port, its
 * real peer port and the proxy port it advertises to the others. Kill, stop, pause and resume
 * act on the process itself, by its PID.
 */
final class MemberProcess {
    final String name;
    final String host;
    final int clientPort;
    final int peerPort;
    final int advertisedPeerPort;
    final Path dataDir;
    final Path logFile;
    /** Where the process runs (a JVM's crash file lands there), or null: this JVM's. */
    final Path workDir;
    private final List<String> command;
    private Process process;
    private boolean paused;

    MemberProcess(String name, String host, int clientPort, int peerPort, int advertisedPeerPort, Path dir, List<String> command) {
        this(name, host, clientPort, peerPort, advertisedPeerPort, dir.resolve(name + ".etcd"), dir.resolve(name + ".log"), null,
                command);
    }

    MemberProcess(String name, String host, int clientPort, int peerPort, int advertisedPeerPort, Path dataDir, Path logFile,
                  Path workDir, List<String> command) {
        this.name = name;
        this.host = host;
        this.clientPort = clientPort;
        this.peerPort = peerPort;
        this.advertisedPeerPort = advertisedPeerPort;
        this.dataDir = dataDir;
        this.logFile = logFile;
        this.workDir = workDir;
        this.command = List.copyOf(command);
    }

    String clientUrl() {
        return "http://" + host + ":" + clientPort;
    }

    String advertisedPeerUrl() {
        return "http://" + host + ":" + advertisedPeerPort;
    }

    synchronized void start() throws IOException {
        if (isAlive()) {
            return;
        }
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()));
        if (workDir != null) {
            pb.directory(workDir.toFile());
        }
        pb.environment().keySet().removeIf(k -> k.startsWith("ETCD"));
        process = pb.start();
        paused = false;
    }

    synchronized boolean isAlive() {
        return process != null && process.isAlive();
    }

    /** The exit code of a process that ended, or null while it runs (or never ran). */
    synchronized Integer exitCode() {
        return process == null || process.isAlive() ? null : process.exitValue();
    }

    synchronized long pid() {
        return isAlive() ? process.pid() : -1;
    }

    synchronized void kill9() throws InterruptedException {
        if (process != null) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
        paused = false;
    }

    synchronized void stop() throws InterruptedException {
        if (process == null) {
            return;
        }
        if (paused) {
            try {
                resume();
            } catch (IOException e) {
                kill9();
                return;
            }
        }
        process.destroy();
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            kill9();
        }
    }

    synchronized void pause() throws IOException, InterruptedException {
        if (isAlive() && !paused) {
            signal("STOP");
            paused = true;
        }
    }

    synchronized void resume() throws IOException, InterruptedException {
        if (isAlive() && paused) {
            signal("CONT");
            paused = false;
        }
    }

    synchronized boolean paused() {
        return paused;
    }

    private void signal(String sig) throws IOException, InterruptedException {
        // bash's built-in kill: no procps needed on a minimal machine
        new ProcessBuilder("bash", "-c", "kill -" + sig + " " + process.pid()).inheritIO().start().waitFor(5, TimeUnit.SECONDS);
    }

    boolean acceptsClients() {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(host, clientPort), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** The last lines of the member's log, for failure reports. */
    String logTail(int lines) {
        try {
            List<String> all = Files.readAllLines(logFile);
            return String.join("\n", new ArrayList<>(all.subList(Math.max(0, all.size() - lines), all.size())));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }
}
