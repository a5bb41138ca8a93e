package io.etcdj.server.transport;

import io.etcdj.server.metrics.PeerMetrics;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * etcd's peer prober: every {@link #INTERVAL_MILLIS} each remote member is asked for {@code GET
 * /raft/probing} on a connection of the prober's own (etcd probes over its pipeline connections,
 * not the Raft stream); the round trip goes to etcd_network_peer_round_trip_time_seconds{To}.
 * (Which peers are active is told by their Raft streams, as in etcd: {@link PeerClient#active()}.)
 */
final class Prober implements AutoCloseable {
    /** etcd's prober interval: its connection read timeout (5 s) less one second. */
    static final long INTERVAL_MILLIS = 4000;
    /** etcd's connection read timeout, the longest a probe may take. */
    static final long TIMEOUT_MILLIS = 5000;

    private final PeerHandler handler;
    private final PeerMetrics metrics;
    private final PeerHttpClient http;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "peer-prober");
        t.setDaemon(true);
        return t;
    });

    Prober(PeerHandler handler, PeerHttpClient http, PeerMetrics metrics) {
        this.handler = handler;
        this.metrics = metrics;
        this.http = http;
    }

    /** Starts probing: the first round after {@link #INTERVAL_MILLIS}, as etcd's prober. */
    void start() {
        timer.scheduleWithFixedDelay(this::probeAll, INTERVAL_MILLIS, INTERVAL_MILLIS, TimeUnit.MILLISECONDS);
    }

    private void probeAll() {
        for (long id : handler.remoteMembers()) {
            List<String> urls = handler.peerUrls(id);
            if (urls.isEmpty()) {
                continue;
            }
            // a peer that is down fails its dial at once (or after the dial timeout): no round trip to record
            http.get(urls.get(0), "/raft/probing", TIMEOUT_MILLIS)
                    .thenAccept(answer -> metrics.roundTrip(id, answer.roundTripNanos()));
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
