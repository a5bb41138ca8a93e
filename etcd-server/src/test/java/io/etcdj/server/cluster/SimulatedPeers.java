package io.etcdj.server.cluster;

import io.etcdj.api.etcdserverpb.HashKVResponse;
import io.etcdj.api.etcdserverpb.LeaseTimeToLiveRequest;
import io.etcdj.api.etcdserverpb.LeaseTimeToLiveResponse;
import io.etcdj.peerpb.LearnerReadyResponse;
import io.etcdj.peerpb.LeaseRenewResponse;
import io.etcdj.raftpb.Message;
import io.etcdj.raftpb.MessageType;
import io.etcdj.server.transport.PeerHandler;
import io.etcdj.server.transport.Transporter;
import io.grpc.Status;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;

/**
 * An in-memory network between members running in one JVM, standing in for the gRPC peer
 * transport: messages go straight to the receiver's {@link PeerHandler}, in order per receiver,
 * unless a link is cut. Snapshots travel as copies of the sender's backend file, as over the wire.
 * Delivery takes no time on the members' clock: the clock waits for every message in flight
 * before it lets time move on.
 */
final class SimulatedPeers implements AutoCloseable {
    private final Map<Long, PeerHandler> members = new ConcurrentHashMap<>();
    private final Map<Long, ExecutorService> inboxes = new ConcurrentHashMap<>();
    private final Set<Long> cut = ConcurrentHashMap.newKeySet();
    private final ManualClock clock;

    SimulatedPeers(ManualClock clock) {
        this.clock = clock;
    }

    /** The factory a member's server is opened with: it joins the network under its member ID. */
    Transporter join(PeerHandler handler) {
        long id = handler.memberId();
        members.put(id, handler);
        return new MemberTransport(id, handler);
    }

    void cut(long a, long b) {
        cut.add(link(a, b));
        cut.add(link(b, a));
    }

    /** Cuts every link of {@code id}. */
    void isolate(long id) {
        for (long other : members.keySet()) {
            if (other != id) {
                cut(id, other);
            }
        }
    }

    void heal() {
        cut.clear();
    }

    private boolean reachable(long from, long to) {
        return members.containsKey(to) && !cut.contains(link(from, to));
    }

    private static long link(long from, long to) {
        return from * 31 + to * 1_000_003L;
    }

    private void deliver(PeerHandler from, Message m) {
        long to = m.getTo();
        if (!reachable(from.memberId(), to)) {
            if (m.getType() == MessageType.MsgSnap) {
                from.snapshotSent(to, false);
            }
            return;
        }
        ExecutorService inbox = inboxes.computeIfAbsent(to, id -> Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "sim-inbox-" + Long.toHexString(id));
            t.setDaemon(true);
            return t;
        }));
        clock.tracked(inbox).execute(() -> {
            PeerHandler dest = members.get(to);
            if (dest == null) {
                return;
            }
            if (dest.isRemoved(from.memberId())) {
                // as the peer service refuses a removed member, which then stops
                from.removedFromCluster();
                return;
            }
            if (m.getType() != MessageType.MsgSnap) {
                dest.receive(List.of(m));
                return;
            }
            PeerHandler.OutgoingSnapshot out = from.prepareSnapshot(m);
            try {
                Path copy = Files.createTempFile(dest.snapshotTempDir(), "incoming", ".snap.db");
                Files.copy(out.file(), copy, StandardCopyOption.REPLACE_EXISTING);
                Files.deleteIfExists(out.file());
                dest.receiveSnapshot(out.message(), copy);
                from.snapshotSent(to, true);
            } catch (IOException e) {
                from.snapshotSent(to, false);
                throw new UncheckedIOException(e);
            }
        });
    }

    private <T> T call(long from, long to, Function<PeerHandler, T> fn) {
        PeerHandler dest = members.get(to);
        if (dest == null || !reachable(from, to)) {
            throw Status.UNAVAILABLE.withDescription("peer " + Long.toHexString(to) + " unreachable").asRuntimeException();
        }
        return fn.apply(dest);
    }

    @Override
    public void close() {
        inboxes.values().forEach(ExecutorService::shutdownNow);
    }

    /** One member's view of the network. */
    private final class MemberTransport implements Transporter {
        private final long self;
        private final PeerHandler handler;

        MemberTransport(long self, PeerHandler handler) {
            this.self = self;
            this.handler = handler;
        }

        @Override
        public void send(List<Message> messages) {
            for (Message m : messages) {
                if (m.getTo() != self && m.getTo() != 0) {
                    deliver(handler, m);
                }
            }
        }

        @Override
        public void removePeer(long id) {
            // nothing is kept per peer here
        }

        @Override
        public LeaseRenewResponse renewOnLeader(long leaderId, long lease, long timeoutMillis) {
            return call(self, leaderId, h -> h.renewLease(lease));
        }

        @Override
        public LeaseTimeToLiveResponse timeToLiveOnLeader(long leaderId, LeaseTimeToLiveRequest r, long timeoutMillis) {
            return call(self, leaderId, h -> h.leaseTimeToLive(r));
        }

        @Override
        public LearnerReadyResponse learnerReadyOnLeader(long leaderId, long member, long timeoutMillis) {
            return call(self, leaderId, h -> h.learnerReady(member));
        }

        @Override
        public HashKVResponse hashKvOf(long memberId, long revision, long timeoutMillis) {
            return call(self, memberId, h -> h.hashKv(revision));
        }

        @Override
        public void close() {
            members.remove(self, handler);
        }
    }
}
