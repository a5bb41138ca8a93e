package io.etcdj.server.wal;

import static io.etcdj.server.wal.Entries.metadata;
import static io.etcdj.server.wal.Entries.range;
import static io.etcdj.server.wal.Entries.state;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.raftpb.Entry;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A disk that fills up under the WAL (real files; the disk's budget runs out inside a write,
 * which keeps what fitted, as a short write does): the failing save names the file and ENOSPC,
 * the WAL refuses further writes, and a reopened WAL holds every save that returned and takes
 * new ones.
 */
class WalDiskFullTest {
    @TempDir
    Path dir;

    @Test
    void aFullDiskFailsTheSaveWithTheFileAndLosesNothingSaved() throws IOException {
        FullDisk disk = new FullDisk(DiskIo.real(), 40_000);
        WalOptions options = WalOptions.builder().diskIo(disk).segmentSizeBytes(1 << 20).build();
        List<Entry> saved = new ArrayList<>();
        IOException failure = null;
        try (Wal wal = Wal.create(dir, metadata(), options)) {
            for (long i = 1; i <= 10_000 && failure == null; i += 10) {
                List<Entry> batch = range(i, i + 9, 1);
                try {
                    wal.save(state(1, 1, i - 1), batch);
                    saved.addAll(batch);
                } catch (IOException e) {
                    failure = e;
                }
            }
            assertTrue(failure instanceof WalWriteException, String.valueOf(failure));
            assertEquals("wal: write " + dir.resolve("0000000000000000-0000000000000000.wal") + ": no space left on device",
                    failure.getMessage());
            IllegalStateException refused = assertThrows(IllegalStateException.class,
                    () -> wal.save(state(1, 1, 0), range(10_001, 10_001, 1)));
            assertTrue(refused.getMessage().startsWith("wal: unusable after an earlier write failure"), refused.getMessage());
        }
        assertTrue(saved.size() > 100, "the budget allowed " + saved.size() + " entries");

        WalOptions roomy = WalOptions.builder().segmentSizeBytes(1 << 20).build();
        try (Wal wal = Wal.open(dir, WalSnapshot.NONE, roomy)) {
            WalReadResult r = wal.readAll();
            assertEquals(saved, r.entries(), "every save that returned, nothing of the failed one");
            long next = saved.get(saved.size() - 1).getIndex() + 1;
            wal.save(state(1, 1, next - 1), range(next, next, 1));
        }
        try (Wal wal = Wal.open(dir, WalSnapshot.NONE, roomy)) {
            assertEquals(saved.size() + 1, wal.readAll().entries().size());
        }
    }

    /** The real disk with a byte budget for writes; the write that exceeds it keeps what fits, then fails as ENOSPC does. */
    private static final class FullDisk implements DiskIo {
        private final DiskIo real;
        private long budget;

        FullDisk(DiskIo real, long budget) {
            this.real = real;
            this.budget = budget;
        }

        private DiskFile limited(DiskFile f) {
            return new DiskFile() {
                @Override
                public long size() throws IOException {
                    return f.size();
                }

                @Override
                public int read(ByteBuffer dst, long position) throws IOException {
                    return f.read(dst, position);
                }

                @Override
                public void write(ByteBuffer src, long position) throws IOException {
                    if (src.remaining() > budget) {
                        ByteBuffer fits = src.duplicate();
                        fits.limit(fits.position() + (int) budget);
                        f.write(fits, position);
                        budget = 0;
                        throw new IOException("No space left on device");
                    }
                    budget -= src.remaining();
                    f.write(src, position);
                }

                @Override
                public void truncate(long size) throws IOException {
                    f.truncate(size);
                }

                @Override
                public void sync() throws IOException {
                    f.sync();
                }

                @Override
                public void close() throws IOException {
                    f.close();
                }
            };
        }

        @Override
        public DiskFile openForRead(Path file) throws IOException {
            return real.openForRead(file);
        }

        @Override
        public DiskFile openForWrite(Path file) throws IOException {
            return limited(real.openForWrite(file));
        }

        @Override
        public DiskFile createTruncated(Path file) throws IOException {
            return limited(real.createTruncated(file));
        }

        @Override
        public List<String> list(Path d) throws IOException {
            return real.list(d);
        }

        @Override
        public boolean exists(Path path) {
            return real.exists(path);
        }

        @Override
        public void createDirectories(Path d) throws IOException {
            real.createDirectories(d);
        }

        @Override
        public void rename(Path from, Path to) throws IOException {
            real.rename(from, to);
        }

        @Override
        public void delete(Path file) throws IOException {
            real.delete(file);
        }

        @Override
        public void syncDirectory(Path d) throws IOException {
            real.syncDirectory(d);
        }
    }
}
