package io.etcdj.server.transport;

import io.etcdj.api.etcdserverpb.HashKVResponse;
import io.etcdj.api.etcdserverpb.LeaseTimeToLiveRequest;
import io.etcdj.api.etcdserverpb.LeaseTimeToLiveResponse;
import io.etcdj.peerpb.LearnerReadyResponse;
import io.etcdj.peerpb.LeaseRenewResponse;
import io.etcdj.raftpb.Message;
import io.etcdj.server.version.Versions;
import java.util.List;

/**
 * The peer network as a member uses it (etcd's rafthttp Transporter): {@link PeerTransport} over
 * gRPC in production, a simulated network in the in-JVM cluster tests. Incoming traffic goes to
 * the member's {@link PeerHandler}.
 */
public interface Transporter extends AutoCloseable {
    /** Sends Raft messages; never blocks on a slow or dead peer. */
    void send(List<Message> messages);

    /** Forgets a removed member. */
    void removePeer(long id);

    LeaseRenewResponse renewOnLeader(long leaderId, long lease, long timeoutMillis);

    LeaseTimeToLiveResponse timeToLiveOnLeader(long leaderId, LeaseTimeToLiveRequest r, long timeoutMillis);

    LearnerReadyResponse learnerReadyOnLeader(long leaderId, long member, long timeoutMillis);

    /** Another member's HashKV at {@code revision}, for the corruption checks. */
    HashKVResponse hashKvOf(long memberId, long revision, long timeoutMillis);

    /**
     * How many other members are reachable now (what the initial election tick advance waits
     * for); a network that cannot tell answers 0, and no ticks are advanced.
     */
    default int activePeers() {
        return 0;
    }

    /**
     * Whether a message to member {@code id} can leave now: a Raft stream to it is open and has
     * not failed. A follower forwards a proposal only to a leader it can reach (one killed a moment
     * ago is not), and keeps it until it can. A network that cannot tell answers true.
     */
    default boolean reachable(long id) {
        return true;
    }

    /** A member's server version (etcd's downgrade monitor asks each member); by default this build's. */
    default String serverVersionOf(long memberId, long timeoutMillis) {
        return Versions.SERVER;
    }

    @Override
    void close();
}
