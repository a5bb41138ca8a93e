package io.etcdj.server.config;

import java.time.Duration;

/**
 * The peer transport, memory, Raft start-up and feature-gate settings that complete etcd 3.6's
 * server flags.
 *
 * @param raftReadTimeout {@code --raft-read-timeout}: how long a peer connection may stay silent
 *                        before it is dropped (zero: never)
 * @param raftWriteTimeout {@code --raft-write-timeout}: how long a send to a peer may wait on a full
 *                         connection before the stream is reset (zero: never)
 * @param memoryMlock {@code --memory-mlock}: lock the process's pages in RAM at start-up
 * @param arrayFreelist {@code --backend-bbolt-freelist-type=array} (any other value is etcd's map)
 * @param initialElectionTickAdvance {@code --initial-election-tick-advance}
 * @param downgradeCheckTime {@code --downgrade-check-time} (zero: no downgrade monitor)
 * @param peerSkipClientSanVerification {@code --peer-skip-client-san-verification}
 * @param setMemberLocalAddr feature gate SetMemberLocalAddr
 * @param stopGrpcServiceOnDefrag feature gate StopGRPCServiceOnDefrag
 * @param txnModeWriteWithSharedBuffer feature gate TxnModeWriteWithSharedBuffer
 * @param autoPromoteLearners {@code --auto-promote-learners} (beyond etcd): the leader promotes a
 *                            learner once it is in sync
 */
public record MemberTuning(Duration raftReadTimeout, Duration raftWriteTimeout, boolean memoryMlock, boolean arrayFreelist,
                           boolean initialElectionTickAdvance, Duration downgradeCheckTime, boolean peerSkipClientSanVerification,
                           boolean setMemberLocalAddr, boolean stopGrpcServiceOnDefrag, boolean txnModeWriteWithSharedBuffer,
                           boolean autoPromoteLearners) {

    /** etcd's defaults. */
    public static final MemberTuning DEFAULTS = new MemberTuning(Duration.ofSeconds(5), Duration.ofSeconds(5), false, false,
            true, Duration.ofSeconds(5), false, false, false, true, false);

    /** etcd's value for the freelist flag: "array" is the array freelist, anything else the map one. */
    public String freelistType() {
        return arrayFreelist ? "array" : "map";
    }
}
