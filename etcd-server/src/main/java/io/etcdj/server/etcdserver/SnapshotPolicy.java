package io.etcdj.server.etcdserver;

import io.etcdj.raftpb.Snapshot;
import io.etcdj.server.backend.Backend;
import io.etcdj.server.config.ServerConfig;
import io.etcdj.server.log.Log;
import io.etcdj.server.log.LogSink;
import io.etcdj.server.metrics.Metrics;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * When the member takes a Raft snapshot (every --snapshot-count applied entries), and what
 * becomes of the backend files that arrive with a leader's snapshot (etcd's snapshot.go and
 * the snapshot half of its apply): each is made durable under its index before Raft sees the
 * snapshot, and handed to the apply loop once Raft has installed the snapshot.
 */
final class SnapshotPolicy {
    private final Log log;
    private final ServerConfig config;
    private final Metrics metrics;
    private final Backend backend;
    /** Backend files received with a snapshot, by the snapshot's index, until Raft installs it. */
    private final Map<Long, Path> incoming = new ConcurrentHashMap<>();
    private volatile long lastSnapshotIndex;

    SnapshotPolicy(ServerConfig config, Metrics metrics, Backend backend, long lastSnapshotIndex, LogSink logs) {
        this.log = logs.logger("etcdserver/server");
        this.config = config;
        this.metrics = metrics;
        this.backend = backend;
        this.lastSnapshotIndex = lastSnapshotIndex;
    }

    /**
     * A follower received the backend file for the Raft snapshot at {@code index}. It is made
     * durable under its index before Raft sees the snapshot: if the member crashes after saving
     * the snapshot and before installing the file, the restart installs it from there.
     */
    void arrived(long index, Path dbFile) {
        Path durable = SnapshotDb.path(config.snapDir(), index);
        try {
            SnapshotDb.makeDurable(dbFile, durable, metrics);
        } catch (IOException e) {
            deleteQuietly(dbFile);
            throw new UncheckedIOException("cannot store the snapshot's database file", e);
        }
        Path old = incoming.put(index, durable);
        if (old != null && !old.equals(durable)) {
            deleteQuietly(old);
        }
    }

    /**
     * Raft installed a leader's snapshot (on the raft thread): returns the backend file that came
     * with it, for the apply loop to install, or null when none did (the local one is kept).
     */
    Path installed(Snapshot snapshot) {
        long index = snapshot.getMetadata().getIndex();
        Path db = incoming.remove(index);
        if (db == null) {
            log.warn("raft snapshot has no backend file; keeping the local one", "snapshot-index", index);
        }
        lastSnapshotIndex = index;
        return db;
    }

    /**
     * Everything up to {@code index} is applied (on the apply thread): {@code raft} takes a
     * snapshot if --snapshot-count entries passed since the last one.
     */
    void applied(long index, RaftLoop raft) {
        if (config.snapshotCount() > 0 && index - lastSnapshotIndex >= config.snapshotCount()) {
            lastSnapshotIndex = index;
            // The backend must be durable up to the snapshot before the snapshot is: a restart
            // resumes from the snapshot and never replays the entries behind it.
            backend.sync();
            raft.snapshot(index, config.snapshotCatchupEntries());
        }
    }

    private static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException ignored) {
            // a stray temp file in the member's own snap dir
        }
    }
}
