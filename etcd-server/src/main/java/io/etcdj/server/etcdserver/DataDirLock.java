package io.etcdj.server.etcdserver;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * An exclusive lock on a data dir ({@code member/lock}) held while a member runs, so a second
 * member, or an offline tool such as etcdutl, cannot open the same files at the same time.
 */
public final class DataDirLock implements AutoCloseable {
    private final FileChannel channel;
    private final FileLock lock;

    private DataDirLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /** Takes the lock or fails at once, naming the data dir. */
    public static DataDirLock acquire(Path dataDir) throws IOException {
        Path file = dataDir.resolve("member").resolve("lock");
        Files.createDirectories(file.getParent());
        FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock lock;
        try {
            lock = ch.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null;
        }
        if (lock == null) {
            ch.close();
            throw new IOException("data dir " + dataDir + " is in use by another etcd process");
        }
        return new DataDirLock(ch, lock);
    }

    @Override
    public void close() {
        try {
            lock.release();
            channel.close();
        } catch (IOException ignored) {
            // the lock goes with the process anyway
        }
    }
}
