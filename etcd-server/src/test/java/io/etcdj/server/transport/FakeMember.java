package io.etcdj.server.transport;

import io.etcdj.api.etcdserverpb.HashKVResponse;
import io.etcdj.api.etcdserverpb.LeaseTimeToLiveRequest;
import io.etcdj.api.etcdserverpb.LeaseTimeToLiveResponse;
import io.etcdj.peerpb.LearnerReadyResponse;
import io.etcdj.peerpb.LeaseRenewResponse;
import io.etcdj.peerpb.MembersResponse;
import io.etcdj.raftpb.Message;
import io.etcdj.server.version.Versions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The member side of a transport in a test: its ids, where its peers are, what it received, which
 * members it counts as removed; calls a link test never makes fail the test.
 */
final class FakeMember implements PeerHandler {
    final long id;
    final long clusterId;
    final Map<Long, String> urls = new ConcurrentHashMap<>();
    final Set<Long> removed = ConcurrentHashMap.newKeySet();
    final List<Message> received = new ArrayList<>();
    final AtomicInteger unreachable = new AtomicInteger();
    final AtomicBoolean toldRemoved = new AtomicBoolean();

    FakeMember(long id, long clusterId) {
        this.id = id;
        this.clusterId = clusterId;
    }

    List<Message> received() {
        synchronized (received) {
            return List.copyOf(received);
        }
    }

    @Override
    public long memberId() {
        return id;
    }

    @Override
    public long clusterId() {
        return clusterId;
    }

    @Override
    public List<Long> remoteMembers() {
        return List.copyOf(urls.keySet());
    }

    @Override
    public List<String> peerUrls(long memberId) {
        String url = urls.get(memberId);
        return url == null ? List.of() : List.of(url);
    }

    @Override
    public boolean isRemoved(long memberId) {
        return removed.contains(memberId);
    }

    @Override
    public void receive(List<Message> messages) {
        synchronized (received) {
            received.addAll(messages);
        }
    }

    @Override
    public void unreachable(long memberId) {
        unreachable.incrementAndGet();
    }

    @Override
    public void removedFromCluster() {
        toldRemoved.set(true);
    }

    @Override
    public void receiveSnapshot(Message m, Path dbFile) {
        throw new AssertionError("unexpected snapshot");
    }

    @Override
    public Path snapshotTempDir() {
        throw new AssertionError("unexpected snapshot");
    }

    @Override
    public OutgoingSnapshot prepareSnapshot(Message m) {
        throw new AssertionError("unexpected snapshot");
    }

    @Override
    public void snapshotSent(long memberId, boolean ok) {
        throw new AssertionError("unexpected snapshot");
    }

    @Override
    public MembersResponse members() {
        return MembersResponse.newBuilder().setClusterId(clusterId).build();
    }

    @Override
    public String clusterVersion() {
        return Versions.CLUSTER;
    }

    @Override
    public LeaseRenewResponse renewLease(long lease) {
        throw new AssertionError("unexpected lease call");
    }

    @Override
    public LeaseTimeToLiveResponse leaseTimeToLive(LeaseTimeToLiveRequest r) {
        throw new AssertionError("unexpected lease call");
    }

    @Override
    public LearnerReadyResponse learnerReady(long memberId) {
        throw new AssertionError("unexpected learner call");
    }

    @Override
    public HashKVResponse hashKv(long revision) {
        throw new AssertionError("unexpected hash call");
    }
}
