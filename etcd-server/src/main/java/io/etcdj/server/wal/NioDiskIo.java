package io.etcdj.server.wal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** {@link DiskIo} on the platform file system through {@link FileChannel}. */
final class NioDiskIo implements DiskIo {

    static final NioDiskIo INSTANCE = new NioDiskIo();

    private NioDiskIo() {
    }

    @Override
    public DiskFile openForRead(Path file) throws IOException {
        return new ChannelFile(FileChannel.open(file, StandardOpenOption.READ));
    }

    @Override
    public DiskFile openForWrite(Path file) throws IOException {
        return new ChannelFile(FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE));
    }

    @Override
    public DiskFile createTruncated(Path file) throws IOException {
        return new ChannelFile(FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE,
                StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING));
    }

    @Override
    public List<String> list(Path dir) throws IOException {
        List<String> names = new ArrayList<>();
        try (Stream<Path> entries = Files.list(dir)) {
            entries.forEach(p -> names.add(p.getFileName().toString()));
        } catch (NoSuchFileException e) {
            return List.of();
        }
        return names;
    }

    @Override
    public boolean exists(Path path) {
        return Files.exists(path);
    }

    @Override
    public void createDirectories(Path dir) throws IOException {
        Files.createDirectories(dir);
    }

    @Override
    public void rename(Path from, Path to) throws IOException {
        Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    @Override
    public void delete(Path file) throws IOException {
        Files.deleteIfExists(file);
    }

    @Override
    public void syncDirectory(Path dir) throws IOException {
        // Opening a directory for reading and forcing it is how a JVM reaches fsync(dirfd) on POSIX
        // systems; without it a rename or a new file may vanish after a power loss.
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        }
    }

    private static final class ChannelFile implements DiskFile {
        private final FileChannel channel;

        ChannelFile(FileChannel channel) {
            this.channel = channel;
        }

        @Override
        public long size() throws IOException {
            return channel.size();
        }

        @Override
        public int read(ByteBuffer dst, long position) throws IOException {
            return channel.read(dst, position);
        }

        @Override
        public void write(ByteBuffer src, long position) throws IOException {
            long at = position;
            while (src.hasRemaining()) {
                at += channel.write(src, at);
            }
        }

        @Override
        public void truncate(long size) throws IOException {
            channel.truncate(size);
        }

        @Override
        public void sync() throws IOException {
            channel.force(false);
        }

        @Override
        public void close() throws IOException {
            channel.close();
        }
    }
}
