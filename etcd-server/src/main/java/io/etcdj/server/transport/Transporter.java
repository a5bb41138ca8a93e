package io.etcdj.server.transport;

import io.etcdj.api.etcdserverpb.LeaseTimeToLiveRequest;
import io.etcdj.api.etcdserverpb.LeaseTimeToLiveResponse;
import io.etcdj.peerpb.LearnerReadyResponse;
import io.etcdj.peerpb.LeaseRenewResponse;
import io.etcdj.raftpb.Message;
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
    io.etcdj.api.etcdserverpb.HashKVResponse hashKvOf(long memberId, long revision, long timeoutMillis);

    @Override
    void close();
}
