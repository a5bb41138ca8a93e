package io.etcdj.server.datadir;

import java.nio.file.Path;

/** Where a member keeps its files, as the server lays them out (and as etcd does). */
public record DataDirLayout(Path dataDir, Path walDir) {

    /** The layout with the WAL in its default place, {@code <data-dir>/member/wal}. */
    public static DataDirLayout of(Path dataDir) {
        return new DataDirLayout(dataDir, null);
    }

    public Path memberDir() {
        return dataDir.resolve("member");
    }

    public Path snapDir() {
        return memberDir().resolve("snap");
    }

    public Path backendFile() {
        return snapDir().resolve("db");
    }

    public Path walPath() {
        return walDir != null ? walDir : memberDir().resolve("wal");
    }
}
