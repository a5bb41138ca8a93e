package io.etcdj.server.membership;

import com.google.protobuf.InvalidProtocolBufferException;
import io.etcdj.api.etcdserverpb.Member;
import io.etcdj.raftpb.ConfChangeType;
import io.etcdj.server.backend.BackendException;
import io.etcdj.server.backend.Bucket;
import io.etcdj.server.backend.Bytes;
import io.etcdj.server.backend.ReadTx;
import io.etcdj.server.backend.WriteTx;
import io.etcdj.server.error.EtcdError;
import io.etcdj.server.metrics.V2StoreMetrics;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The cluster's members as applied from Raft: ID, name, peer and client URLs, learner flag, and
 * the IDs of removed members (which must never come back). Persisted in the members buckets.
 */
public final class Membership {
    private final V2StoreMetrics metrics;
    private final ConcurrentSkipListMap<Long, Member> members = new ConcurrentSkipListMap<>(Long::compareUnsigned);
    private final Set<Long> removed = ConcurrentHashMap.newKeySet();
    private volatile long clusterId;

    /** etcd's --max-learners default. */
    public static final int MAX_LEARNERS = 1;

    /** The members of a member, counting their reads and writes into {@code metrics} (etcd's v2 store families). */
    public Membership(V2StoreMetrics metrics) {
        this.metrics = metrics;
    }

    /** Members outside a running member (offline tools): counted nowhere anyone reads. */
    public Membership() {
        this(V2StoreMetrics.unexported());
    }

    public long clusterId() {
        return clusterId;
    }

    public void setClusterId(long clusterId) {
        this.clusterId = clusterId;
    }

    public void restore(ReadTx tx) {
        members.clear();
        removed.clear();
        metrics.read("getRecursive");
        tx.forEach(Bucket.MEMBERS, null, null, (k, v) -> {
            Member m = parse(v);
            members.put(m.getID(), m);
            return true;
        });
        tx.forEach(Bucket.MEMBERS_REMOVED, null, null, (k, v) -> {
            removed.add(Bytes.toLong(k));
            return true;
        });
    }

    private static Member parse(byte[] v) {
        try {
            return Member.parseFrom(v);
        } catch (InvalidProtocolBufferException e) {
            throw new BackendException("corrupt member record: " + e.getMessage(), e);
        }
    }

    /** Members in ID order (etcd lists them so). */
    public List<Member> members() {
        return new ArrayList<>(members.values());
    }

    public Member member(long id) {
        return members.get(id);
    }

    public boolean isRemoved(long id) {
        return removed.contains(id);
    }

    public Collection<Long> ids() {
        return new ArrayList<>(members.keySet());
    }

    public void add(WriteTx tx, Member m) {
        metrics.write(members.put(m.getID(), m) == null ? "create" : "set");
        tx.put(Bucket.MEMBERS, Bytes.longBytes(m.getID()), m.toByteArray());
    }

    public void remove(WriteTx tx, long id) {
        members.remove(id);
        metrics.write("delete");
        removed.add(id);
        tx.delete(Bucket.MEMBERS, Bytes.longBytes(id));
        tx.put(Bucket.MEMBERS_REMOVED, Bytes.longBytes(id), new byte[0]);
    }

    /** Records a member's published name and client URLs. Unknown members are ignored. */
    public void updateAttributes(WriteTx tx, long id, String name, List<String> clientUrls) {
        Member m = members.get(id);
        if (m != null) {
            add(tx, m.toBuilder().setName(name).clearClientURLs().addAllClientURLs(clientUrls).build());
        }
    }

    public boolean isEmpty() {
        return members.isEmpty();
    }

    /** Refuses a member add as etcd does: bad or taken peer URLs, too many learners, too few started voters. */
    public void checkAdd(List<String> peerUrls, boolean learner, boolean strictReconfigCheck) {
        checkAdd(peerUrls, learner, strictReconfigCheck, MAX_LEARNERS);
    }

    /** As above, with --max-learners. */
    public void checkAdd(List<String> peerUrls, boolean learner, boolean strictReconfigCheck, int maxLearners) {
        checkUrls(peerUrls, 0);
        if (learner) {
            if (members().stream().filter(Member::getIsLearner).count() >= maxLearners) {
                throw EtcdError.TOO_MANY_LEARNERS.exception();
            }
        } else if (strictReconfigCheck && !enoughStartedAfter(1, 0)) {
            throw EtcdError.MEMBER_NOT_ENOUGH_STARTED.exception();
        }
    }

    /** The member to remove, or etcd's error. */
    public Member checkRemove(long id, boolean strictReconfigCheck) {
        Member m = existing(id);
        if (!m.getIsLearner() && strictReconfigCheck && !enoughStartedAfter(0, id)) {
            throw EtcdError.MEMBER_NOT_ENOUGH_STARTED.exception();
        }
        return m;
    }

    /** The member with its new peer URLs, or etcd's error. */
    public Member checkUpdate(long id, List<String> peerUrls) {
        Member m = existing(id);
        checkUrls(peerUrls, id);
        return m.toBuilder().clearPeerURLs().addAllPeerURLs(peerUrls).build();
    }

    /** The learner to promote, or etcd's error (whether it caught up is the leader's to say). */
    public Member checkPromote(long id) {
        Member m = existing(id);
        if (!m.getIsLearner()) {
            throw EtcdError.MEMBER_NOT_LEARNER.exception();
        }
        return m;
    }

    /**
     * Applies a committed conf change to the member records ({@code context} is the member the
     * change carries, or null): add (or promote an existing learner), remove, update peer URLs.
     */
    public void apply(WriteTx tx, ConfChangeType type, long nodeId, Member context) {
        switch (type) {
            case ConfChangeAddNode, ConfChangeAddLearnerNode -> {
                Member existing = member(nodeId);
                if (existing != null) {
                    if (type == ConfChangeType.ConfChangeAddNode && existing.getIsLearner()) {
                        add(tx, existing.toBuilder().setIsLearner(false).build());
                    }
                } else if (context != null) {
                    add(tx, context);
                }
            }
            case ConfChangeRemoveNode -> remove(tx, nodeId);
            case ConfChangeUpdateNode -> {
                Member existing = member(nodeId);
                if (existing != null && context != null) {
                    add(tx, existing.toBuilder().clearPeerURLs().addAllPeerURLs(context.getPeerURLsList()).build());
                }
            }
            default -> {
            }
        }
    }

    private Member existing(long id) {
        Member m = member(id);
        if (m == null) {
            throw EtcdError.MEMBER_NOT_FOUND.exception();
        }
        return m;
    }

    /** Peer URLs must parse as http(s) or unix(s) URLs with host and port, and belong to no other member. */
    private void checkUrls(List<String> urls, long self) {
        if (urls.isEmpty()) {
            throw EtcdError.MEMBER_BAD_URLS.exception();
        }
        for (String s : urls) {
            try {
                URI u = new URI(s);
                if (!List.of("http", "https", "unix", "unixs").contains(u.getScheme()) || u.getHost() == null || u.getPort() < 0) {
                    throw EtcdError.MEMBER_BAD_URLS.exception();
                }
            } catch (URISyntaxException e) {
                throw EtcdError.MEMBER_BAD_URLS.exception();
            }
        }
        for (Member m : members()) {
            if (m.getID() != self && m.getPeerURLsList().stream().anyMatch(urls::contains)) {
                throw EtcdError.PEER_URL_EXIST.exception();
            }
        }
    }

    /**
     * Whether, after adding {@code add} voters or removing voter {@code removing}, the voters that
     * have started (published their name) still make a quorum, as etcd's strict reconfig check.
     */
    private boolean enoughStartedAfter(int add, long removing) {
        List<Member> voters = members().stream().filter(m -> !m.getIsLearner()).toList();
        long started = voters.stream().filter(m -> m.getID() != removing && !m.getName().isEmpty()).count();
        int total = voters.size() + add - (removing != 0 ? 1 : 0);
        if (add == 1 && started == 1 && total == 2) {
            return true; // etcd lets a one-member cluster grow (restoring a cluster from one member's data)
        }
        return started >= total / 2 + 1;
    }
}
