package io.etcdj.server.etcdserver;

import io.etcdj.api.etcdserverpb.HashKVResponse;
import io.etcdj.api.etcdserverpb.ResponseHeader;
import io.etcdj.server.mvcc.CompactionHashes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A member and its peers as the corruption checks see them: fixed hashes per member and revision,
 * peers that do not answer, and the alarms and questions the check produced.
 */
final class FakeHashedCluster implements HashedCluster {
    final long self;
    final List<Long> members;
    boolean leader = true;
    /** This member's answers to HashKV, in turn (the periodic check asks twice). */
    final List<HashKVResponse> local = new ArrayList<>();
    /** A peer's answer per member and revision; absent: the peer does not answer. */
    final Map<Long, Map<Long, HashKVResponse>> peers = new HashMap<>();
    final List<CompactionHashes.Entry> compactions = new ArrayList<>();
    final List<Long> alarms = new ArrayList<>();
    final List<String> asked = new ArrayList<>();
    private int localCalls;

    FakeHashedCluster(long self, Long... members) {
        this.self = self;
        this.members = List.of(members);
    }

    static HashKVResponse hash(long revision, long compactRevision, int hash) {
        return HashKVResponse.newBuilder().setHeader(ResponseHeader.newBuilder().setRevision(revision))
                .setCompactRevision(compactRevision).setHash(hash).build();
    }

    FakeHashedCluster peer(long id, long revision, HashKVResponse answer) {
        peers.computeIfAbsent(id, k -> new HashMap<>()).put(revision, answer);
        return this;
    }

    @Override
    public boolean isLeader() {
        return leader;
    }

    @Override
    public long memberId() {
        return self;
    }

    @Override
    public List<Long> memberIds() {
        return members;
    }

    @Override
    public HashKVResponse localHash() {
        return local.get(Math.min(localCalls++, local.size() - 1));
    }

    @Override
    public HashKVResponse peerHash(long memberId, long revision, long timeoutMillis) {
        asked.add(Long.toHexString(memberId) + "@" + revision);
        HashKVResponse r = peers.getOrDefault(memberId, Map.of()).get(revision);
        if (r == null) {
            throw new IllegalStateException("connection refused");
        }
        return r;
    }

    @Override
    public void awaitLinearizable(long timeoutMillis) {
    }

    @Override
    public List<CompactionHashes.Entry> compactionHashesNewestFirst() {
        return compactions;
    }

    @Override
    public void raiseCorruptAlarm(long memberId) {
        alarms.add(memberId);
    }
}
