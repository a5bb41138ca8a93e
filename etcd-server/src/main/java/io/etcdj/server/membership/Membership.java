package io.etcdj.server.membership;

import com.google.protobuf.InvalidProtocolBufferException;
import io.etcdj.api.etcdserverpb.Member;
import io.etcdj.server.backend.Bucket;
import io.etcdj.server.backend.BackendException;
import io.etcdj.server.backend.Bytes;
import io.etcdj.server.backend.ReadTx;
import io.etcdj.server.backend.WriteTx;
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
    private final ConcurrentSkipListMap<Long, Member> members = new ConcurrentSkipListMap<>(Long::compareUnsigned);
    private final Set<Long> removed = ConcurrentHashMap.newKeySet();
    private volatile long clusterId;

    public long clusterId() {
        return clusterId;
    }

    public void setClusterId(long clusterId) {
        this.clusterId = clusterId;
    }

    public void restore(ReadTx tx) {
        members.clear();
        removed.clear();
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
        members.put(m.getID(), m);
        tx.put(Bucket.MEMBERS, Bytes.longBytes(m.getID()), m.toByteArray());
    }

    public void remove(WriteTx tx, long id) {
        members.remove(id);
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
}
