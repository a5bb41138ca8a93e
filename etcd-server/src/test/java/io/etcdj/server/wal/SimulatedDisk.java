package io.etcdj.server.wal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An in-memory {@link DiskIo} that remembers what is durable: file content as of its last sync,
 * directory entries as of the directory's last sync. It counts every operation that changes the
 * disk ("write points") and can crash at the k-th one; a crashing write leaves a chosen prefix of
 * its bytes. {@link #afterCrash} then gives the disk a restarted process would see, either after
 * a process crash (everything written survives in the page cache) or after a power loss (only
 * what was synced survives).
 */
public final class SimulatedDisk implements DiskIo {

    public enum Crash { PROCESS, POWER_LOSS }

    private final DirNode root;
    private int mutations;
    private int crashAt = -1;
    private double tornFraction;
    private boolean dead;
    private int fileSyncs;
    private int directorySyncs;

    public SimulatedDisk() {
        this(new DirNode());
    }

    private SimulatedDisk(DirNode root) {
        this.root = root;
    }

    /** Crash at the {@code k}-th write point (1-based); a crashing write keeps {@code tornFraction} of its bytes. */
    public void crashAt(int k, double tornFraction) {
        this.crashAt = k;
        this.tornFraction = tornFraction;
    }

    /** Write points so far: writes, truncations, syncs, creations, renames, deletions. */
    public int mutations() {
        return mutations;
    }

    public int fileSyncs() {
        return fileSyncs;
    }

    public int directorySyncs() {
        return directorySyncs;
    }

    /** Creates {@code dir} and its parents as if they had existed, durably, before the test. */
    public void createDurableDirectories(Path dir) {
        DirNode d = root;
        for (Path part : dir) {
            DirNode next = (DirNode) d.entries.computeIfAbsent(part.toString(), n -> new DirNode());
            d.durable.put(part.toString(), next);
            d = next;
        }
    }

    /** The disk a new process sees after this one died. */
    public SimulatedDisk afterCrash(Crash kind) {
        return new SimulatedDisk(copy(root, kind));
    }

    /** The current bytes of {@code file} (test inspection; not a write point). */
    public byte[] content(Path file) throws IOException {
        FileNode f = file(file);
        return Arrays.copyOf(f.data, f.length);
    }

    /** Replaces the bytes of {@code file} durably (test setup for corruption; not a write point). */
    public void overwrite(Path file, byte[] content) throws IOException {
        FileNode f = file(file);
        f.data = content.clone();
        f.length = content.length;
        f.sync();
    }

    @Override
    public DiskFile openForRead(Path file) throws IOException {
        alive();
        return new SimFile(file(file));
    }

    @Override
    public DiskFile openForWrite(Path file) throws IOException {
        alive();
        return new SimFile(file(file));
    }

    @Override
    public DiskFile createTruncated(Path file) throws IOException {
        mutation("create " + file);
        DirNode parent = dir(file.getParent());
        Object existing = parent.entries.get(name(file));
        if (existing instanceof DirNode) {
            throw new FileAlreadyExistsException(file.toString());
        }
        FileNode f = existing == null ? new FileNode() : (FileNode) existing;
        f.length = 0;
        parent.entries.put(name(file), f);
        return new SimFile(f);
    }

    @Override
    public List<String> list(Path dir) throws IOException {
        alive();
        Object node = lookup(dir);
        return node instanceof DirNode d ? new ArrayList<>(d.entries.keySet()) : List.of();
    }

    @Override
    public boolean exists(Path path) {
        alive();
        return lookup(path) != null;
    }

    @Override
    public void createDirectories(Path dir) throws IOException {
        if (lookup(dir) instanceof DirNode) {
            alive();
            return;
        }
        mutation("mkdir " + dir);
        DirNode d = root;
        for (Path part : dir.toAbsolutePath()) {
            Object next = d.entries.computeIfAbsent(part.toString(), n -> new DirNode());
            if (!(next instanceof DirNode nextDir)) {
                throw new FileAlreadyExistsException(dir.toString());
            }
            d = nextDir;
        }
    }

    @Override
    public void rename(Path from, Path to) throws IOException {
        mutation("rename " + from + " " + to);
        DirNode source = dir(from.getParent());
        Object node = source.entries.remove(name(from));
        if (node == null) {
            throw new NoSuchFileException(from.toString());
        }
        dir(to.getParent()).entries.put(name(to), node);
    }

    @Override
    public void delete(Path file) throws IOException {
        if (lookup(file) == null) {
            alive();
            return;
        }
        mutation("delete " + file);
        dir(file.getParent()).entries.remove(name(file));
    }

    @Override
    public void syncDirectory(Path dir) throws IOException {
        mutation("sync " + dir);
        DirNode d = dir(dir);
        d.durable.clear();
        d.durable.putAll(d.entries);
        directorySyncs++;
    }

    private void alive() {
        if (dead) {
            throw new SimulatedCrash("the process already crashed");
        }
    }

    /** Counts a write point; returns normally unless this is the one to crash at. */
    private void mutation(String what) {
        alive();
        mutations++;
        if (mutations == crashAt) {
            dead = true;
            throw new SimulatedCrash("crash at write point " + mutations + ": " + what);
        }
    }

    private FileNode file(Path path) throws IOException {
        Object node = lookup(path);
        if (!(node instanceof FileNode f)) {
            throw new NoSuchFileException(path.toString());
        }
        return f;
    }

    private DirNode dir(Path path) throws IOException {
        Object node = lookup(path);
        if (!(node instanceof DirNode d)) {
            throw new NoSuchFileException(String.valueOf(path));
        }
        return d;
    }

    private Object lookup(Path path) {
        Object node = root;
        for (Path part : path.toAbsolutePath()) {
            if (!(node instanceof DirNode d)) {
                return null;
            }
            node = d.entries.get(part.toString());
        }
        return node;
    }

    private static String name(Path p) {
        return p.getFileName().toString();
    }

    private static DirNode copy(DirNode dir, Crash kind) {
        DirNode out = new DirNode();
        Map<String, Object> survivors = kind == Crash.PROCESS ? dir.entries : dir.durable;
        for (Map.Entry<String, Object> e : survivors.entrySet()) {
            Object copied;
            if (e.getValue() instanceof DirNode d) {
                copied = copy(d, kind);
            } else {
                FileNode f = (FileNode) e.getValue();
                FileNode c = new FileNode();
                c.data = kind == Crash.PROCESS ? Arrays.copyOf(f.data, f.length) : Arrays.copyOf(f.durableData, f.durableLength);
                c.length = c.data.length;
                c.sync();
                copied = c;
            }
            out.entries.put(e.getKey(), copied);
            out.durable.put(e.getKey(), copied);
        }
        return out;
    }

    private static final class DirNode {
        final Map<String, Object> entries = new HashMap<>();
        final Map<String, Object> durable = new HashMap<>();
    }

    private static final class FileNode {
        byte[] data = new byte[0];
        int length;
        byte[] durableData = new byte[0];
        int durableLength;

        void write(byte[] bytes, int count, long position) {
            int end = Math.toIntExact(position + count);
            if (end > data.length) {
                data = Arrays.copyOf(data, Math.max(end, data.length * 2));
            }
            if (position > length) {
                Arrays.fill(data, length, (int) position, (byte) 0);
            }
            System.arraycopy(bytes, 0, data, (int) position, count);
            length = Math.max(length, end);
        }

        void sync() {
            durableData = Arrays.copyOf(data, length);
            durableLength = length;
        }
    }

    private final class SimFile implements DiskFile {
        private final FileNode node;

        SimFile(FileNode node) {
            this.node = node;
        }

        @Override
        public long size() {
            alive();
            return node.length;
        }

        @Override
        public int read(ByteBuffer dst, long position) {
            alive();
            if (position >= node.length) {
                return -1;
            }
            int n = (int) Math.min(dst.remaining(), node.length - position);
            dst.put(node.data, (int) position, n);
            return n;
        }

        @Override
        public void write(ByteBuffer src, long position) {
            byte[] bytes = new byte[src.remaining()];
            src.get(bytes);
            try {
                mutation("write " + bytes.length + " bytes at " + position);
            } catch (SimulatedCrash crash) {
                node.write(bytes, (int) (bytes.length * tornFraction), position);
                throw crash;
            }
            node.write(bytes, bytes.length, position);
        }

        @Override
        public void truncate(long size) {
            mutation("truncate to " + size);
            if (size < node.length) {
                node.length = (int) size;
            }
        }

        @Override
        public void sync() {
            mutation("fsync");
            node.sync();
            fileSyncs++;
        }

        @Override
        public void close() {
        }
    }
}
