package io.etcdj.server.transport;

import io.etcdj.peerpb.PeerGrpc;
import io.etcdj.peerpb.ProbeRequest;
import io.etcdj.peerpb.ProbeResponse;
import io.etcdj.server.metrics.PeerMetrics;
import io.grpc.ManagedChannel;
import io.grpc.stub.StreamObserver;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * etcd's peer prober: every {@link #INTERVAL} each remote member gets one small call on a channel
 * of the prober's own (etcd probes over its pipeline connections, not the Raft stream); the round
 * trip goes to etcd_network_peer_round_trip_time_seconds{To}. (Which peers are active is told by
 * their Raft streams, as in etcd: {@link PeerClient#active()}.)
 */
final class Prober implements AutoCloseable {
    /** etcd's prober interval: its connection read timeout (5 s) less one second. */
    static final long INTERVAL_MILLIS = 4000;
    /** etcd's connection read timeout, the longest a probe may take. */
    static final long TIMEOUT_MILLIS = 5000;

    private final PeerHandler handler;
    private final PeerMetrics metrics;
    private final Function<String, ManagedChannel> dial;
    private final Map<Long, ManagedChannel> channels = new ConcurrentHashMap<>();
    private final Map<Long, String> channelUrls = new ConcurrentHashMap<>();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "peer-prober");
        t.setDaemon(true);
        return t;
    });

    Prober(PeerHandler handler, Function<String, ManagedChannel> dial, PeerMetrics metrics) {
        this.handler = handler;
        this.metrics = metrics;
        this.dial = dial;
    }

    /** Starts probing: the first round after {@link #INTERVAL_MILLIS}, as etcd's prober. */
    void start() {
        timer.scheduleWithFixedDelay(this::probeAll, INTERVAL_MILLIS, INTERVAL_MILLIS, TimeUnit.MILLISECONDS);
    }

    private void probeAll() {
        List<Long> members = handler.remoteMembers();
        channels.keySet().removeIf(id -> {
            if (!members.contains(id)) {
                channels.get(id).shutdownNow();
                return true;
            }
            return false;
        });
        for (long id : members) {
            try {
                probe(id);
            } catch (RuntimeException e) {
                // not answered: no round trip to record
            }
        }
    }

    private void probe(long id) {
        List<String> urls = handler.peerUrls(id);
        if (urls.isEmpty()) {
            return;
        }
        String url = urls.get(0);
        ManagedChannel ch = channels.get(id);
        if (ch == null || !url.equals(channelUrls.get(id))) {
            if (ch != null) {
                ch.shutdownNow();
            }
            ch = dial.apply(url);
            channels.put(id, ch);
            channelUrls.put(id, url);
        }
        // each probe dials again at once if the peer was down: grpc-java's own backoff grows to minutes
        ch.resetConnectBackoff();
        long start = System.nanoTime();
        PeerGrpc.newStub(ch).withDeadlineAfter(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS).probe(ProbeRequest.getDefaultInstance(),
                new StreamObserver<>() {
                    @Override
                    public void onNext(ProbeResponse value) {
                        metrics.roundTrip(id, System.nanoTime() - start);
                    }

                    @Override
                    public void onError(Throwable t) {
                        // not answered: no round trip to record
                    }

                    @Override
                    public void onCompleted() {
                    }
                });
    }

    @Override
    public void close() {
        timer.shutdownNow();
        channels.values().forEach(ManagedChannel::shutdownNow);
        channels.clear();
    }
}
