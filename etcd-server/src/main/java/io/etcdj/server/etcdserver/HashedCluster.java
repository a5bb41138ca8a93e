package io.etcdj.server.etcdserver;

import io.etcdj.api.etcdserverpb.HashKVResponse;
import io.etcdj.api.etcdserverpb.Member;
import io.etcdj.server.mvcc.CompactionHashes;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * What the corruption checks ({@link CorruptionCheck}, {@link CompactionHashCheck}) see of their
 * member and its cluster: the hashes of this member and its peers, and the CORRUPT alarm. A member
 * gives its own ({@link #of}); the checks' unit tests give a cluster of fixed hashes.
 */
interface HashedCluster {
    boolean isLeader();

    long memberId();

    /** Every member's ID, this one's included. */
    List<Long> memberIds();

    /** This member's HashKV at its current revision. */
    HashKVResponse localHash();

    /** Another member's HashKV at {@code revision}; a RuntimeException when it cannot answer. */
    HashKVResponse peerHash(long memberId, long revision, long timeoutMillis);

    /** Waits until this member has applied everything committed before the call (a linearizable read). */
    void awaitLinearizable(long timeoutMillis) throws InterruptedException, ExecutionException, TimeoutException;

    /** The hashes this member recorded at its compactions, newest first. */
    List<CompactionHashes.Entry> compactionHashesNewestFirst();

    /** Proposes etcd's CORRUPT alarm for {@code memberId} (0: the whole cluster) through Raft. */
    void raiseCorruptAlarm(long memberId);

    static HashedCluster of(EtcdServer server) {
        return new HashedCluster() {
            @Override
            public boolean isLeader() {
                return server.isLeader();
            }

            @Override
            public long memberId() {
                return server.memberId();
            }

            @Override
            public List<Long> memberIds() {
                return server.stateMachines().membership.members().stream().map(Member::getID).toList();
            }

            @Override
            public HashKVResponse localHash() {
                return server.maintenance().hashKv(0);
            }

            @Override
            public HashKVResponse peerHash(long memberId, long revision, long timeoutMillis) {
                return server.transport().hashKvOf(memberId, revision, timeoutMillis);
            }

            @Override
            public void awaitLinearizable(long timeoutMillis)
                    throws InterruptedException, ExecutionException, TimeoutException {
                server.linearizableBarrier().get(timeoutMillis, TimeUnit.MILLISECONDS);
            }

            @Override
            public List<CompactionHashes.Entry> compactionHashesNewestFirst() {
                return server.stateMachines().store.compactionHashes().newestFirst();
            }

            @Override
            public void raiseCorruptAlarm(long memberId) {
                server.raiseCorruptAlarm(memberId);
            }
        };
    }
}
