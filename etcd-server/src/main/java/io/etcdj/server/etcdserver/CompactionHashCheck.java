package io.etcdj.server.etcdserver;

import io.etcdj.api.etcdserverpb.HashKVResponse;
import io.etcdj.server.log.Log;
import io.etcdj.server.log.LogSink;
import io.etcdj.server.mvcc.CompactionHashes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * etcd 3.5/3.6's compaction hash check (feature gate CompactHashCheck), run by the leader every
 * --compact-hash-check-time. Each compaction records the hash of the history it covered (the same
 * on every member, which compact at the same revisions); the leader asks each follower for its
 * hash at those revisions, newest first, and stops at the first revision every follower could
 * answer at the leader's compact revision. Followers whose hash differs from a majority's get a
 * CORRUPT alarm; with no majority the alarm is raised for the whole cluster (member 0), as etcd
 * does. A revision checked on the whole cluster is not checked again.
 */
final class CompactionHashCheck {
    /** The member's logger (its sink, see MemberContext). */
    private final Log log;

    private final HashedCluster server;
    private long latestRevisionChecked;

    CompactionHashCheck(EtcdServer server, LogSink logs) {
        this(HashedCluster.of(server), logs);
    }

    CompactionHashCheck(HashedCluster cluster, LogSink logs) {
        this.log = logs.logger("etcdserver/corrupt");
        this.server = cluster;
    }

    /** One pass; only the leader checks. */
    void run(long timeoutMillis) {
        if (!server.isLeader()) {
            return;
        }
        String leader = Long.toHexString(server.memberId());
        log.info("starting compact hash check", "local-member-id", leader, "timeout", timeoutMillis + "ms");
        List<CompactionHashes.Entry> hashes = unchecked();
        for (int i = 0; i < hashes.size(); i++) {
            Map<Long, HashKVResponse> peers = peerHashes(hashes.get(i).revision(), timeoutMillis);
            if (peers.isEmpty()) {
                continue;
            }
            if (compare(hashes.get(i), peers)) {
                log.info("finished compaction hash check", "number-of-hashes-checked", i + 1);
                return;
            }
        }
        log.info("finished compaction hash check", "number-of-hashes-checked", hashes.size());
    }

    private List<CompactionHashes.Entry> unchecked() {
        List<CompactionHashes.Entry> out = new ArrayList<>();
        for (CompactionHashes.Entry e : server.compactionHashesNewestFirst()) {
            if (e.revision() <= latestRevisionChecked) {
                break;
            }
            out.add(e);
        }
        return out;
    }

    /** Each follower's answer at {@code revision}; null for one that could not answer. */
    private Map<Long, HashKVResponse> peerHashes(long revision, long timeoutMillis) {
        Map<Long, HashKVResponse> out = new LinkedHashMap<>();
        for (long id : server.memberIds()) {
            if (id == server.memberId()) {
                continue;
            }
            try {
                out.put(id, server.peerHash(id, revision, timeoutMillis));
            } catch (RuntimeException e) {
                log.warn("failed hash kv request", "local-member-id", Long.toHexString(server.memberId()),
                        "requested-revision", revision, "remote-peer-id", Long.toHexString(id),
                        "error", String.valueOf(e.getMessage()));
                out.put(id, null);
            }
        }
        return out;
    }

    /**
     * Groups the members by hash and raises alarms on a mismatch. Returns whether this revision
     * settled the pass: true when every follower was compared or an alarm went up, false when
     * some follower had to be skipped, so an older compaction is tried.
     */
    private boolean compare(CompactionHashes.Entry leaderHash, Map<Long, HashKVResponse> peers) {
        String leader = Long.toHexString(server.memberId());
        Map<Long, List<Long>> byHash = new LinkedHashMap<>();
        byHash.computeIfAbsent(leaderHash.hash(), h -> new ArrayList<>()).add(server.memberId());
        int checked = 0;
        for (Map.Entry<Long, HashKVResponse> p : peers.entrySet()) {
            HashKVResponse r = p.getValue();
            String reason = null;
            if (r == null) {
                reason = "no response";
            } else if (r.getCompactRevision() != leaderHash.compactRevision()) {
                reason = "the peer's CompactRevision " + r.getCompactRevision()
                        + " doesn't match leader's CompactRevision " + leaderHash.compactRevision();
            }
            if (reason != null) {
                log.warn("Skipped peer's hash", "number-of-peers", peers.size(), "leader-id", leader,
                        "peer-id", Long.toHexString(p.getKey()), "reason", reason);
                continue;
            }
            checked++;
            byHash.computeIfAbsent(Integer.toUnsignedLong(r.getHash()), h -> new ArrayList<>()).add(p.getKey());
        }
        if (byHash.size() == 1) {
            return consistent(leaderHash, checked, peers.size());
        }
        int quorum = (peers.size() + 1) / 2 + 1;
        Long majority = null;
        for (Map.Entry<Long, List<Long>> e : byHash.entrySet()) {
            if (e.getValue().size() >= quorum) {
                majority = e.getKey();
                break;
            }
        }
        if (majority == null) {
            log.error("Detected compaction hash mismatch but cannot identify the corrupted members, so intentionally set the memberID as 0",
                    "leader-id", leader, "leader-revision", leaderHash.revision(),
                    "leader-compact-revision", leaderHash.compactRevision(), "leader-hash", leaderHash.hash());
            server.raiseCorruptAlarm(0);
        } else {
            byHash.remove(majority);
        }
        for (Map.Entry<Long, List<Long>> e : byHash.entrySet()) {
            if (majority != null) {
                e.getValue().forEach(server::raiseCorruptAlarm);
            }
            log.error("Detected compaction hash mismatch", "leader-id", leader, "leader-revision", leaderHash.revision(),
                    "leader-compact-revision", leaderHash.compactRevision(), "leader-hash", leaderHash.hash(),
                    "peer-hash", e.getKey(), "peer-ids", ids(e.getValue()));
        }
        return true;
    }

    private boolean consistent(CompactionHashes.Entry hash, int checked, int peers) {
        if (checked == peers) {
            log.info("successfully checked hash on whole cluster", "number-of-peers-checked", checked,
                    "revision", hash.revision(), "compactRevision", hash.compactRevision());
            latestRevisionChecked = Math.max(latestRevisionChecked, hash.revision());
            return true;
        }
        log.warn("skipped revision in compaction hash check; was not able to check all peers",
                "number-of-peers-checked", checked, "number-of-peers", peers,
                "revision", hash.revision(), "compactRevision", hash.compactRevision());
        return false;
    }

    private static String ids(List<Long> ids) {
        List<String> hex = new ArrayList<>();
        ids.forEach(id -> hex.add(Long.toHexString(id)));
        return "[" + String.join(",", hex) + "]";
    }
}
