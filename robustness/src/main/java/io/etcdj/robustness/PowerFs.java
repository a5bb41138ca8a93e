package io.etcdj.robustness;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One powerfs mount (robustness/src/main/c/powerfs.c): a view of a backing directory that keeps
 * what was not fsynced in the powerfs process and forgets it on a power cut. The binary is
 * compiled on first use into robustness/target/powerfs/ (gcc, pkg-config and libfuse3's headers),
 * and is mounted with fusermount3's help.
 *
 * <p>A power cut is {@link #cut()} or {@link #torn(long)} while nothing uses the mount (the
 * processes on it killed), then {@link #reboot()}: the kernel's page cache of the mount still
 * holds what the processes wrote, and only a new mount drops it.
 */
public final class PowerFs implements AutoCloseable {
    /** An answer "error: ..." from the control socket, or a mount that did not come up. */
    public static final class PowerFsException extends IOException {
        PowerFsException(String message) {
            super(message);
        }
    }

    /** What is not durable: the "file ..." and "dir ..." lines and the closing "ok" line. */
    public record Status(List<String> files, List<String> dirChanges, String summary) {
        boolean clean() {
            return files.isEmpty() && dirChanges.isEmpty();
        }
    }

    private final Path binary;
    private final Path backing;
    private final Path mountPoint;
    private final Path control;
    private final Path log;
    private Process process;

    private PowerFs(Path binary, Path backing, Path mountPoint, Path control, Path log) {
        this.binary = binary;
        this.backing = backing;
        this.mountPoint = mountPoint;
        this.control = control;
        this.log = log;
    }

    /** Why powerfs cannot run here, or null when it can: /dev/fuse, fusermount3, gcc and libfuse3's headers. */
    public static String unavailable() {
        if (!Files.exists(Path.of("/dev/fuse"))) {
            return "no /dev/fuse on this machine";
        }
        for (String tool : List.of("fusermount3", "gcc", "pkg-config")) {
            if (!onPath(tool)) {
                return tool + " is not installed (Debian: fuse3 gcc pkg-config libfuse3-dev)";
            }
        }
        try {
            Process p = new ProcessBuilder("pkg-config", "--exists", "fuse3").redirectErrorStream(true).start();
            if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
                return "libfuse3's headers are not installed (Debian: libfuse3-dev)";
            }
        } catch (IOException e) {
            return "pkg-config does not run: " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
        return null;
    }

    static boolean onPath(String tool) {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, tool))) {
                return true;
            }
        }
        return false;
    }

    /** The powerfs binary, compiled from the project's source when missing or older than it. */
    public static synchronized Path binary(Path projectRoot) throws IOException, InterruptedException {
        Path source = projectRoot.resolve("robustness/src/main/c/powerfs.c");
        Path out = projectRoot.resolve("robustness/target/powerfs/powerfs");
        if (Files.exists(out) && Files.getLastModifiedTime(out).compareTo(Files.getLastModifiedTime(source)) >= 0) {
            return out;
        }
        Files.createDirectories(out.getParent());
        // compiled beside its final name and moved: a concurrent build never runs a half-written binary
        Path tmp = Files.createTempFile(out.getParent(), "powerfs-", ".tmp");
        String cmd = "gcc -O2 -Wall -o '" + tmp + "' '" + source + "' $(pkg-config --cflags --libs fuse3)";
        Process p = new ProcessBuilder("bash", "-c", cmd).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            Files.deleteIfExists(tmp);
            throw new PowerFsException("powerfs did not compile: " + output);
        }
        Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return out;
    }

    /**
     * Mounts backing at mountPoint (both made if missing); control is the Unix socket powerfs
     * listens on (a short path: at most 107 bytes), log takes powerfs's own output.
     */
    public static PowerFs mount(Path binary, Path backing, Path mountPoint, Path control, Path log)
            throws IOException, InterruptedException {
        Files.createDirectories(backing);
        Files.createDirectories(mountPoint);
        PowerFs fs = new PowerFs(binary, backing, mountPoint, control, log);
        fs.start();
        return fs;
    }

    private void start() throws IOException, InterruptedException {
        Files.deleteIfExists(control);
        process = new ProcessBuilder(binary.toString(), "--control", control.toString(), backing.toString(),
                mountPoint.toString(), "-f").redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new PowerFsException("powerfs exited with " + process.exitValue() + " before mounting " + mountPoint
                        + ": " + Files.readString(log).strip());
            }
            if (Files.exists(control)) {
                try {
                    command("ping");
                    return;
                } catch (IOException e) {
                    // the socket is there before it listens
                }
            }
            Thread.sleep(20);
        }
        process.destroyForcibly();
        throw new PowerFsException("powerfs did not mount " + mountPoint + " within 20 s: " + Files.readString(log).strip());
    }

    public Path mountPoint() {
        return mountPoint;
    }

    public Path backing() {
        return backing;
    }

    /** Sends one control command; the reply's lines, the last one "ok ...". */
    public synchronized List<String> command(String line) throws IOException {
        try (SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            ch.connect(UnixDomainSocketAddress.of(control));
            ch.write(ByteBuffer.wrap((line + "\n").getBytes(StandardCharsets.UTF_8)));
            BufferedReader in = new BufferedReader(Channels.newReader(ch, StandardCharsets.UTF_8));
            List<String> reply = new ArrayList<>();
            for (String l = in.readLine(); l != null; l = in.readLine()) {
                if (l.startsWith("error: ")) {
                    throw new PowerFsException("powerfs " + line + ": " + l.substring("error: ".length()));
                }
                reply.add(l);
                if (l.startsWith("ok")) {
                    return reply;
                }
            }
            throw new PowerFsException("powerfs closed the control socket before answering " + line);
        }
    }

    private String last(List<String> reply) {
        return reply.get(reply.size() - 1).substring(2).strip();
    }

    /** Power cut: everything not fsynced dropped, un-synced directory changes undone. */
    public String cut() throws IOException {
        return last(command("cut"));
    }

    /** Power cut after a partial, seeded write-back of what was not fsynced. */
    public String torn(long seed) throws IOException {
        return last(command("torn " + (seed & 0x7fffffffL)));
    }

    /** Everything made durable. */
    public String sync() throws IOException {
        return last(command("sync"));
    }

    /** Every fsync waits this long first (0: not at all): a slow disk. */
    public void delayFsync(long millis) throws IOException {
        command("delay " + millis);
    }

    /** Writes past this many bytes in all fail with ENOSPC (0: no limit): a full disk. */
    public void capacity(long bytes) throws IOException {
        command("capacity " + bytes);
    }

    public Status status() throws IOException {
        List<String> reply = command("status");
        List<String> files = new ArrayList<>();
        List<String> dirs = new ArrayList<>();
        for (String l : reply.subList(0, reply.size() - 1)) {
            (l.startsWith("file ") ? files : dirs).add(l);
        }
        return new Status(files, dirs, last(reply));
    }

    /** Unmounts and mounts again: the kernel's page cache of the old mount goes with it. */
    public void reboot() throws IOException, InterruptedException {
        unmount();
        start();
    }

    /** Unmounts (itself a power cut: what is not durable is dropped) and waits for powerfs to end. */
    public void unmount() throws IOException, InterruptedException {
        if (process == null) {
            return;
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        String why = "";
        while (process.isAlive() && System.nanoTime() < deadline) {
            Process u = new ProcessBuilder("fusermount3", "-u", mountPoint.toString()).redirectErrorStream(true).start();
            why = new String(u.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            u.waitFor(10, TimeUnit.SECONDS);
            if (process.waitFor(u.exitValue() == 0 ? 10 : 0, TimeUnit.SECONDS)) {
                break;
            }
            Thread.sleep(200);
        }
        if (process.isAlive()) {
            // still busy: detach it lazily so the directory is free, and end powerfs
            new ProcessBuilder("fusermount3", "-u", "-z", mountPoint.toString()).inheritIO().start().waitFor(10, TimeUnit.SECONDS);
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
            process = null;
            throw new PowerFsException("could not unmount " + mountPoint + " (" + why + "); detached it");
        }
        process = null;
    }

    @Override
    public void close() {
        try {
            unmount();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
