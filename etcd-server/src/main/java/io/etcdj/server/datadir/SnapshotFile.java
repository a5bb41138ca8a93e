package io.etcdj.server.datadir;

import io.etcdj.server.bbolt.BboltReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.StringJoiner;

/**
 * A snapshot file as the Snapshot RPC streams it (the backend file followed by its 32-byte
 * SHA-256) or a backend file copied from {@code member/snap/db} (no trailer). The trailer is
 * recognised as etcd recognises it: a file whose size is 32 more than a multiple of 512 has one,
 * since backend files are always whole pages.
 */
public final class SnapshotFile {
    static final int SHA256_SIZE = 32;
    private static final int SECTOR = 512;

    private final Path path;
    private final long size;

    private SnapshotFile(Path path, long size) {
        this.path = path;
        this.size = size;
    }

    /** Opens {@code path}; {@code verb} names the failing call in the error as Go would ("open", "stat"). */
    public static SnapshotFile of(Path path, String verb) throws DataDirException {
        if (Files.isDirectory(path)) {
            throw new DataDirException("read " + path + ": is a directory");
        }
        try {
            return new SnapshotFile(path, Files.size(path));
        } catch (IOException e) {
            throw IoErrors.describe(verb, path, e);
        }
    }

    public Path path() {
        return path;
    }

    /** Is the backend part a real etcd's bbolt file (rather than our LMDB one)? */
    public boolean isBbolt() {
        return BboltReader.looksLikeBbolt(path);
    }

    /** Checks the SHA-256 trailer, as {@link #copyDbTo} does, without copying. */
    public void verifyHash(boolean skipHashCheck) throws DataDirException {
        verifyHash(skipHashCheck, RestoreProgress.NONE);
    }

    /** {@link #verifyHash(boolean)}, reporting the bytes read to {@code progress}. */
    public void verifyHash(boolean skipHashCheck, RestoreProgress progress) throws DataDirException {
        copyDbTo(OutputStream.nullOutputStream(), skipHashCheck, progress);
    }

    public boolean hasChecksum() {
        return size % SECTOR == SHA256_SIZE;
    }

    /** Size of the backend part (without the trailer). */
    public long dbSize() {
        return hasChecksum() ? size - SHA256_SIZE : size;
    }

    /**
     * Copies the backend part to {@code target}, checking the trailer unless {@code skipHashCheck};
     * the copy is made first so the check reads the bytes that will be used.
     */
    public void copyDbTo(Path target, boolean skipHashCheck) throws DataDirException {
        copyDbTo(target, skipHashCheck, RestoreProgress.NONE);
    }

    /** {@link #copyDbTo(Path, boolean)}, reporting the bytes copied to {@code progress}. */
    public void copyDbTo(Path target, boolean skipHashCheck, RestoreProgress progress) throws DataDirException {
        try (OutputStream out = Files.newOutputStream(target)) {
            copyDbTo(out, skipHashCheck, progress);
        } catch (IOException e) {
            throw IoErrors.describe("open", target, e);
        }
    }

    private void copyDbTo(OutputStream out, boolean skipHashCheck, RestoreProgress progress) throws DataDirException {
        if (!hasChecksum() && !skipHashCheck) {
            throw new DataDirException("snapshot missing hash but --skip-hash-check=false");
        }
        byte[] actual;
        byte[] expected = new byte[SHA256_SIZE];
        try (InputStream in = Files.newInputStream(path)) {
            DigestInputStream digesting = new DigestInputStream(in, sha256());
            copy(digesting, out, dbSize(), progress);
            actual = digesting.getMessageDigest().digest();
            if (hasChecksum() && in.readNBytes(expected, 0, SHA256_SIZE) != SHA256_SIZE) {
                throw new DataDirException("unexpected EOF reading " + path);
            }
        } catch (IOException e) {
            throw IoErrors.describe("open", path, e);
        }
        if (hasChecksum() && !skipHashCheck && !Arrays.equals(expected, actual)) {
            throw new DataDirException("expected sha256 " + goBytes(expected) + ", got " + goBytes(actual));
        }
    }

    private static void copy(InputStream in, OutputStream out, long n, RestoreProgress progress) throws IOException {
        byte[] buf = new byte[64 * 1024];
        long left = n;
        while (left > 0) {
            int r = in.read(buf, 0, (int) Math.min(buf.length, left));
            if (r < 0) {
                throw new IOException("unexpected EOF");
            }
            out.write(buf, 0, r);
            left -= r;
            progress.bytesRead(n - left, n);
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK always has SHA-256", e);
        }
    }

    /** A byte slice as Go's %v prints it: unsigned decimals in brackets. */
    static String goBytes(byte[] b) {
        StringJoiner j = new StringJoiner(" ", "[", "]");
        for (byte x : b) {
            j.add(Integer.toString(x & 0xff));
        }
        return j.toString();
    }
}
