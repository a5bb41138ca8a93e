package io.etcdj.server.wal;

import java.nio.file.Path;

/** A byte offset inside one segment file, used to report where damage was found. */
public record WalPosition(Path file, long offset) {

    @Override
    public String toString() {
        return file + " at offset " + offset;
    }
}
