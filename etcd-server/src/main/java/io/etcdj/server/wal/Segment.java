package io.etcdj.server.wal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/** The segment being appended to: an open file and the offset where the next record goes. */
final class Segment {

    private final SegmentName name;
    private final Path path;
    private final DiskFile file;
    private long end;

    Segment(SegmentName name, Path path, DiskFile file, long end) {
        this.name = name;
        this.path = path;
        this.file = file;
        this.end = end;
    }

    SegmentName name() {
        return name;
    }

    Path path() {
        return path;
    }

    long end() {
        return end;
    }

    DiskFile file() {
        return file;
    }

    void append(ByteBuffer records) throws IOException {
        int length = records.remaining();
        file.write(records, end);
        end += length;
    }

    /**
     * Extends the file to {@code size} bytes, so that appends do not change its size and an
     * fdatasync has no size to record. Java has no portable fallocate, so on most file systems the
     * tail is sparse; it reads as zeros either way, which recovery relies on.
     */
    void preallocate(long size) throws IOException {
        if (file.size() < size) {
            file.write(ByteBuffer.allocate(1), size - 1);
        }
    }

    /** Drops the preallocated tail so a finished segment ends exactly after its last record. */
    void trimToEnd() throws IOException {
        file.truncate(end);
    }

    /** Overwrites {@code [from, to)} with zeros. */
    void zero(long from, long to) throws IOException {
        ByteBuffer zeros = ByteBuffer.allocate(64 * 1024);
        for (long at = from; at < to; at += zeros.capacity()) {
            zeros.clear().limit((int) Math.min(zeros.capacity(), to - at));
            file.write(zeros, at);
        }
    }

    void close() throws IOException {
        file.close();
    }
}
