package io.etcdj.server.it;

import io.etcdj.harness.Command;
import io.etcdj.harness.Prerequisites;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A tmpfs of a few megabytes mounted on a fresh temp directory, so a member's files can meet a
 * full disk; unmounted and removed on close, whatever happened. Needs root (as CI runs): a test
 * run by another user is skipped.
 */
final class SmallTmpfs implements AutoCloseable {
    private final Path dir;
    private final Path filler;

    private SmallTmpfs(Path dir) {
        this.dir = dir;
        this.filler = dir.resolve("filler");
    }

    static SmallTmpfs mount(int megabytes) throws IOException, InterruptedException {
        Prerequisites.optional("root".equals(System.getProperty("user.name")), "root, to mount a tmpfs");
        Path dir = Files.createTempDirectory("etcd-disk-full-");
        int rc = run("mount", "-t", "tmpfs", "-o", "size=" + megabytes + "m", "tmpfs", dir.toString());
        if (rc != 0) {
            Files.delete(dir);
            throw new IOException("mount -t tmpfs on " + dir + " exited " + rc);
        }
        return new SmallTmpfs(dir);
    }

    Path dir() {
        return dir;
    }

    /** Fills the file system with a file of zeros until {@code leaveBytes} are free (tmpfs stores every byte). */
    void fillLeaving(long leaveBytes) throws IOException {
        ByteBuffer zeros = ByteBuffer.allocate(1 << 20);
        try (FileChannel ch = FileChannel.open(filler, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND)) {
            long toWrite = Files.getFileStore(dir).getUsableSpace() - leaveBytes;
            while (toWrite > 0) {
                zeros.clear().limit((int) Math.min(zeros.capacity(), toWrite));
                toWrite -= ch.write(zeros);
            }
        }
    }

    /** Deletes the filler: the space an operator frees. */
    void free() throws IOException {
        Files.deleteIfExists(filler);
    }

    long freeBytes() throws IOException {
        return Files.getFileStore(dir).getUsableSpace();
    }

    @Override
    public void close() throws IOException, InterruptedException {
        if (run("umount", dir.toString()) != 0) {
            // still busy (a process not yet gone): detached now, released once the last file closes
            run("umount", "-l", dir.toString());
        }
        Files.deleteIfExists(dir);
    }

    private static int run(String... command) throws IOException, InterruptedException {
        Command.Result r = Command.of(command).mergeStderr().run();
        if (r.exitCode() != 0) {
            System.err.println(String.join(" ", command) + ": " + r.stdout());
        }
        return r.exitCode();
    }
}
