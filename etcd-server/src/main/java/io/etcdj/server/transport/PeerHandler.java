package io.etcdj.server.transport;

import io.etcdj.api.etcdserverpb.HashKVResponse;
import io.etcdj.api.etcdserverpb.LeaseTimeToLiveRequest;
import io.etcdj.api.etcdserverpb.LeaseTimeToLiveResponse;
import io.etcdj.peerpb.LearnerReadyResponse;
import io.etcdj.peerpb.LeaseRenewResponse;
import io.etcdj.peerpb.MembersResponse;
import io.etcdj.raftpb.Message;
import java.nio.file.Path;
import java.util.List;

/** What the transport needs from its member: where peers are, and where incoming traffic goes. */
public interface PeerHandler {
    long memberId();

    /** The cluster this member belongs to (0 while a joining member does not know it yet). */
    long clusterId();

    /** The other members of the cluster as this member knows it. */
    List<Long> remoteMembers();

    /** Peer URLs of a member, empty if unknown. */
    List<String> peerUrls(long memberId);

    boolean isRemoved(long memberId);

    /** Raft messages from one peer's stream, in order: what one read from its connection held. */
    void receive(List<Message> messages);

    /** A snapshot message arrived with its backend file (now owned by the handler). */
    void receiveSnapshot(Message m, Path dbFile);

    /** Where a received snapshot's file is written before it is handed over. */
    Path snapshotTempDir();

    /** A snapshot ready to send: the message to deliver and the backend copy it describes (the caller deletes it). */
    record OutgoingSnapshot(Message message, Path file) {
    }

    /**
     * Prepares Raft's snapshot message {@code m} for sending: a consistent copy of the backend
     * and the message restamped with this member's applied index and current configuration, so
     * the receiver finds itself in it (etcd's merged snapshot).
     */
    OutgoingSnapshot prepareSnapshot(Message m);

    void unreachable(long memberId);

    void snapshotSent(long memberId, boolean ok);

    /** Another member told us we were removed from the cluster. */
    void removedFromCluster();

    MembersResponse members();

    /** The cluster version this member reports (GET /version on the peer URLs, as on the client URLs). */
    String clusterVersion();

    LeaseRenewResponse renewLease(long id);

    LeaseTimeToLiveResponse leaseTimeToLive(LeaseTimeToLiveRequest r);

    LearnerReadyResponse learnerReady(long memberId);

    /** This member's HashKV at {@code revision} (0: the current one). */
    HashKVResponse hashKv(long revision);
}
