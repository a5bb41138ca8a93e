package io.etcdj.robustness;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.harness.Prerequisites;
import io.etcdj.harness.TempDirs;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** powerfs's semantics on a real mount: what survives a power cut and what does not. */
class PowerFsTest {
    private static final Path ROOT = Path.of(System.getProperty("robustness.projectRoot", "..")).toAbsolutePath().normalize();
    private static Path binary;
    private Path dir;
    private final List<PowerFs> mounts = new ArrayList<>();
    private PowerFs fs;
    private Path mnt;

    @BeforeAll
    static void compile() throws Exception {
        Prerequisites.optional(Files.exists(Path.of("/dev/fuse")), "/dev/fuse, for the powerfs filesystem");
        Prerequisites.require(PowerFs.unavailable());
        binary = PowerFs.binary(ROOT);
    }

    @BeforeEach
    void mount() throws Exception {
        dir = TempDirs.create("powerfs-test-");
        fs = mountAt("a");
        mnt = fs.mountPoint();
    }

    private PowerFs mountAt(String name) throws Exception {
        PowerFs f = PowerFs.mount(binary, dir.resolve(name + ".disk"), dir.resolve(name + ".mnt"), dir.resolve(name + ".ctl"),
                dir.resolve(name + ".log"));
        mounts.add(f);
        return f;
    }

    @AfterEach
    void unmount() {
        for (PowerFs f : mounts) {
            try {
                f.unmount();
            } catch (Exception e) {
                System.err.println("unmount: " + e);
            }
        }
        TempDirs.delete(dir);
    }

    private static void write(Path file, byte[] data, long at, boolean fsync) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(data), at);
            if (fsync) {
                ch.force(true);
            }
        }
    }

    private static void fsyncDir(Path d) throws IOException {
        try (FileChannel ch = FileChannel.open(d, StandardOpenOption.READ)) {
            ch.force(true);
        }
    }

    /** A file written, fsynced and its directory fsynced: durable. */
    private static void durable(Path file, String content) throws IOException {
        write(file, content.getBytes(), 0, true);
        fsyncDir(file.getParent());
    }

    private void powerCut() throws Exception {
        fs.cut();
        fs.reboot();
    }

    @Test
    void anUnsyncedWriteIsGoneAfterACutAndAnFsyncedOneStays() throws Exception {
        durable(mnt.resolve("f"), "durable");
        write(mnt.resolve("f"), " and more".getBytes(), 7, false);
        assertEquals("durable and more", Files.readString(mnt.resolve("f")), "the writer sees its own write at once");
        assertTrue(fs.status().files().stream().anyMatch(l -> l.startsWith("file /f pages 1 ")), fs.status().toString());
        powerCut();
        assertEquals("durable", Files.readString(mnt.resolve("f")));

        write(mnt.resolve("f"), " and more".getBytes(), 7, true);
        powerCut();
        assertEquals("durable and more", Files.readString(mnt.resolve("f")));
    }

    @Test
    void aTruncationIsUndoneByACut() throws Exception {
        durable(mnt.resolve("f"), "0123456789");
        try (FileChannel ch = FileChannel.open(mnt.resolve("f"), StandardOpenOption.WRITE)) {
            ch.truncate(3);
        }
        write(mnt.resolve("f"), "x".getBytes(), 5, false);
        assertArrayEquals(new byte[] {'0', '1', '2', 0, 0, 'x'}, Files.readAllBytes(mnt.resolve("f")),
                "bytes past a truncation read as zeros when the file grows again");
        powerCut();
        assertEquals("0123456789", Files.readString(mnt.resolve("f")));
    }

    @Test
    void aFileWhoseDirectoryWasNotFsyncedDisappears() throws Exception {
        Files.createDirectories(mnt.resolve("d"));
        fsyncDir(mnt);
        write(mnt.resolve("d/new"), "fsynced contents".getBytes(), 0, true);
        assertEquals(List.of("dir create /d/new"), fs.status().dirChanges());
        powerCut();
        assertFalse(Files.exists(mnt.resolve("d/new")), "created, fsynced, but its directory never was");

        write(mnt.resolve("d/new"), "fsynced contents".getBytes(), 0, true);
        fsyncDir(mnt.resolve("d"));
        powerCut();
        assertEquals("fsynced contents", Files.readString(mnt.resolve("d/new")));
    }

    /** An ordered metadata journal: a directory's fsync makes every earlier directory change durable, no later one. */
    @Test
    void aDirectoryFsyncMakesEveryEarlierChangeDurable() throws Exception {
        Files.createDirectories(mnt.resolve("a"));
        Files.createDirectories(mnt.resolve("b"));
        fsyncDir(mnt);
        write(mnt.resolve("a/earlier"), "1".getBytes(), 0, true);
        write(mnt.resolve("b/own"), "2".getBytes(), 0, true);
        write(mnt.resolve("a/later"), "3".getBytes(), 0, true);
        fsyncDir(mnt.resolve("b"));
        assertEquals(List.of("dir create /a/later"), fs.status().dirChanges());
        powerCut();
        assertTrue(Files.exists(mnt.resolve("a/earlier")));
        assertTrue(Files.exists(mnt.resolve("b/own")));
        assertFalse(Files.exists(mnt.resolve("a/later")));
    }

    @Test
    void aRenameIsUndoneUntilTheDirectoryIsFsynced() throws Exception {
        durable(mnt.resolve("old"), "old contents");
        durable(mnt.resolve("tmp"), "new contents");
        Files.move(mnt.resolve("tmp"), mnt.resolve("old"), StandardCopyOption.ATOMIC_MOVE);
        assertEquals("new contents", Files.readString(mnt.resolve("old")));
        powerCut();
        assertEquals("old contents", Files.readString(mnt.resolve("old")), "the overwritten file comes back");
        assertEquals("new contents", Files.readString(mnt.resolve("tmp")));

        Files.move(mnt.resolve("tmp"), mnt.resolve("old"), StandardCopyOption.ATOMIC_MOVE);
        fsyncDir(mnt);
        powerCut();
        assertEquals("new contents", Files.readString(mnt.resolve("old")));
        assertFalse(Files.exists(mnt.resolve("tmp")));
        assertEquals(List.of(), Arrays.asList(dir.resolve("a.disk/.powerfs-graveyard").toFile().list()),
                "a durable overwrite frees the old file");
    }

    @Test
    void anUnlinkIsUndoneWithTheFilesDurableContents() throws Exception {
        durable(mnt.resolve("f"), "kept");
        write(mnt.resolve("f"), "KEPT but not fsynced".getBytes(), 0, false);
        Files.delete(mnt.resolve("f"));
        assertFalse(Files.exists(mnt.resolve("f")));
        assertFalse(Arrays.asList(mnt.toFile().list()).contains(".powerfs-graveyard"), "the graveyard is hidden");
        powerCut();
        assertEquals("kept", Files.readString(mnt.resolve("f")));

        Files.delete(mnt.resolve("f"));
        fsyncDir(mnt);
        powerCut();
        assertFalse(Files.exists(mnt.resolve("f")));
    }

    @Test
    void aMkdirAndRmdirAreUndone() throws Exception {
        Files.createDirectories(mnt.resolve("gone"));
        Files.createDirectories(mnt.resolve("kept"));
        fsyncDir(mnt);
        Files.delete(mnt.resolve("kept"));
        Files.createDirectories(mnt.resolve("new"));
        powerCut();
        assertTrue(Files.isDirectory(mnt.resolve("kept")));
        assertTrue(Files.isDirectory(mnt.resolve("gone")));
        assertFalse(Files.exists(mnt.resolve("new")));
    }

    /** 64 pages written without fsync, then torn with a seed: the same strict subset each time. */
    private List<Integer> tornPages(PowerFs f, long seed) throws Exception {
        Path file = f.mountPoint().resolve("pages");
        durable(file, "");
        byte[] page = new byte[4096];
        for (int i = 0; i < 64; i++) {
            Arrays.fill(page, (byte) (i + 1));
            write(file, page, 4096L * i, false);
        }
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            assertEquals(64 * 4096, ch.size());
        }
        f.torn(seed);
        f.reboot();
        byte[] all = Files.readAllBytes(file);
        List<Integer> kept = new ArrayList<>();
        for (int i = 0; i < all.length / 4096; i++) {
            if (all[i * 4096] == (byte) (i + 1)) {
                kept.add(i);
            }
        }
        return kept;
    }

    @Test
    void tornKeepsASeededSubsetOfTheUnsyncedPages() throws Exception {
        List<Integer> first = tornPages(fs, 42);
        List<Integer> again = tornPages(mountAt("b"), 42);
        assertEquals(first, again, "the same seed keeps the same pages");
        assertTrue(first.size() > 0 && first.size() < 64, "a strict subset: " + first);
    }

    @Test
    void writesPastTheCapacityFailWithNoSpace() throws Exception {
        fs.capacity(64 * 1024);
        write(mnt.resolve("a"), new byte[40 * 1024], 0, false);
        IOException e = assertThrows(IOException.class, () -> write(mnt.resolve("b"), new byte[40 * 1024], 0, false));
        assertTrue(String.valueOf(e.getMessage()).contains("No space left on device"), e.toString());
        Files.delete(mnt.resolve("a"));
        write(mnt.resolve("b"), new byte[40 * 1024], 0, false);
        fs.capacity(0);
        write(mnt.resolve("c"), new byte[100 * 1024], 0, false);
    }

    @Test
    void fsyncWaitsForTheConfiguredDelay() throws Exception {
        fs.delayFsync(300);
        long start = System.nanoTime();
        write(mnt.resolve("f"), "x".getBytes(), 0, true);
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertTrue(millis >= 290, "fsync returned after " + millis + " ms");
    }

    @Test
    void aBadCommandIsRefusedWithItsReason() {
        PowerFs.PowerFsException e = assertThrows(PowerFs.PowerFsException.class, () -> fs.command("melt"));
        assertTrue(e.getMessage().contains("unknown command 'melt'"), e.getMessage());
    }
}
