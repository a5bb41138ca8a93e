package io.etcdj.server.wal;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;

/** An open file with positional reads and writes, as the WAL and the snapshotter need. */
public interface DiskFile extends Closeable {

    long size() throws IOException;

    /** Reads up to {@code dst.remaining()} bytes at {@code position}; returns the count, or -1 at end of file. */
    int read(ByteBuffer dst, long position) throws IOException;

    /** Writes all remaining bytes of {@code src} at {@code position}. */
    void write(ByteBuffer src, long position) throws IOException;

    /** Cuts the file to {@code size} bytes. */
    void truncate(long size) throws IOException;

    /** Makes the written data and the file size durable (fdatasync). */
    void sync() throws IOException;

    /** Reads the whole file into memory. */
    default byte[] readAll() throws IOException {
        long size = size();
        if (size > Integer.MAX_VALUE - 8) {
            throw new IOException("file of " + size + " bytes is too large to read at once");
        }
        ByteBuffer buf = ByteBuffer.allocate((int) size);
        while (buf.hasRemaining()) {
            if (read(buf, buf.position()) < 0) {
                break;
            }
        }
        byte[] out = new byte[buf.position()];
        buf.flip().get(out);
        return out;
    }
}
