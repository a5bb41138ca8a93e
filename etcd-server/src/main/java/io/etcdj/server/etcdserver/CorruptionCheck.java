package io.etcdj.server.etcdserver;

import io.etcdj.api.etcdserverpb.HashKVResponse;
import io.etcdj.server.log.Log;
import io.etcdj.server.log.LogSink;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * etcd's initial corruption check (--experimental-initial-corrupt-check, feature gate
 * InitialCorruptCheck): before the member starts, its HashKV at its current revision is compared
 * with every peer's at the same revision. A peer that cannot answer (not started yet, behind,
 * compacted past it) is only reported; a different hash at the same compact revision stops the
 * start-up with "found data inconsistency with peers".
 */
final class CorruptionCheck {
    /** The member's logger (its sink, see MemberContext). */
    private final Log log;

    private final HashedCluster server;

    CorruptionCheck(EtcdServer server, LogSink logs) {
        this(HashedCluster.of(server), logs);
    }

    CorruptionCheck(HashedCluster cluster, LogSink logs) {
        this.log = logs.logger("etcdserver/corrupt");
        this.server = cluster;
    }

    /**
     * etcd's periodic check, run by the leader every --corrupt-check-time: its hash before and
     * after a linearizable read, and every follower's at the same revision. A follower ahead of
     * the leader (revision or compaction) or with another hash at the same compact revision, or
     * the leader's own hash changing at an unchanged revision, raises the CORRUPT alarm for that
     * member through Raft; from then on the cluster refuses key-value and lease requests.
     */
    void periodic(long timeoutMillis) throws Exception {
        if (!server.isLeader()) {
            return;
        }
        String local = Long.toHexString(server.memberId());
        HashKVResponse h = server.localHash();
        long rev = h.getHeader().getRevision();
        Map<Long, HashKVResponse> peers = new LinkedHashMap<>();
        for (long id : server.memberIds()) {
            if (id != server.memberId()) {
                try {
                    peers.put(id, server.peerHash(id, rev, timeoutMillis));
                } catch (RuntimeException e) {
                    log.warn("failed hash kv request", "local-member-id", local, "requested-revision", rev,
                            "remote-peer-id", Long.toHexString(id), "error", String.valueOf(e.getMessage()));
                }
            }
        }
        server.awaitLinearizable(timeoutMillis);
        HashKVResponse h2 = server.localHash();
        long rev2 = h2.getHeader().getRevision();
        Set<Long> corrupt = new LinkedHashSet<>();
        if (h2.getHash() != h.getHash() && rev2 == rev && h.getCompactRevision() == h2.getCompactRevision()) {
            log.warn("found hash mismatch", "revision-1", rev, "compact-revision-1", h.getCompactRevision(),
                    "hash-1", Integer.toUnsignedLong(h.getHash()), "revision-2", rev2,
                    "compact-revision-2", h2.getCompactRevision(), "hash-2", Integer.toUnsignedLong(h2.getHash()));
            corrupt.add(server.memberId());
        }
        for (Map.Entry<Long, HashKVResponse> p : peers.entrySet()) {
            HashKVResponse r = p.getValue();
            String peer = Long.toHexString(p.getKey());
            if (r.getHeader().getRevision() > rev2) {
                log.warn("revision from follower must be less than or equal to leader's", "leader-revision", rev2,
                        "follower-revision", r.getHeader().getRevision(), "follower-peer-id", peer);
                corrupt.add(p.getKey());
            }
            if (r.getCompactRevision() > h2.getCompactRevision()) {
                log.warn("compact revision from follower must be less than or equal to leader's",
                        "leader-compact-revision", h2.getCompactRevision(),
                        "follower-compact-revision", r.getCompactRevision(), "follower-peer-id", peer);
                corrupt.add(p.getKey());
            }
            if (r.getCompactRevision() == h.getCompactRevision() && r.getHash() != h.getHash()) {
                log.warn("same compact revision then hashes must match", "leader-compact-revision", h.getCompactRevision(),
                        "leader-hash", Integer.toUnsignedLong(h.getHash()), "follower-compact-revision", r.getCompactRevision(),
                        "follower-hash", Integer.toUnsignedLong(r.getHash()), "follower-peer-id", peer);
                corrupt.add(p.getKey());
            }
        }
        if (!corrupt.isEmpty()) {
            server.raiseCorruptAlarm(corrupt.iterator().next());
        }
        log.info("finished peer corruption check", "number-of-peers-checked", peers.size());
    }

    void initial(long timeoutMillis) throws IOException {
        String local = Long.toHexString(server.memberId());
        log.info("starting initial corruption check", "local-member-id", local, "timeout", timeoutMillis + "ms");
        HashKVResponse mine = server.localHash();
        long rev = mine.getHeader().getRevision();
        int mismatch = 0;
        for (long id : server.memberIds()) {
            if (id == server.memberId()) {
                continue;
            }
            String peer = Long.toHexString(id);
            HashKVResponse theirs;
            try {
                theirs = server.peerHash(id, rev, timeoutMillis);
            } catch (RuntimeException e) {
                log.warn("cannot fetch hash from remote peer", "local-member-id", local, "remote-peer-id", peer,
                        "requested-revision", rev, "error", String.valueOf(e.getMessage()));
                continue;
            }
            if (theirs.getHash() == mine.getHash()) {
                continue;
            }
            if (theirs.getCompactRevision() == mine.getCompactRevision()) {
                log.warn("found different hash values from remote peer", "local-member-id", local,
                        "local-member-revision", rev, "local-member-compact-revision", mine.getCompactRevision(),
                        "local-member-hash", Integer.toUnsignedLong(mine.getHash()), "remote-peer-id", peer,
                        "remote-peer-hash", Integer.toUnsignedLong(theirs.getHash()));
                mismatch++;
            } else {
                log.warn("found different compact revision values from remote peer", "local-member-id", local,
                        "local-member-compact-revision", mine.getCompactRevision(), "remote-peer-id", peer,
                        "remote-peer-compact-revision", theirs.getCompactRevision());
            }
        }
        if (mismatch > 0) {
            throw new IOException(local + " found data inconsistency with peers");
        }
        log.info("initial corruption checking passed; no corruption", "local-member-id", local);
    }
}
