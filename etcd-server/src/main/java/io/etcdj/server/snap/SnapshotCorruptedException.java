package io.etcdj.server.snap;

import java.io.IOException;

/** A snapshot file fails its checksum, cannot be decoded, or does not match its name. */
public final class SnapshotCorruptedException extends IOException {
    private static final long serialVersionUID = 1L;

    public SnapshotCorruptedException(String message) {
        super(message);
    }
}
