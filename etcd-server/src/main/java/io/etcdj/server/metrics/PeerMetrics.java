package io.etcdj.server.metrics;

import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import io.prometheus.metrics.core.datapoints.GaugeDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.Histogram;

/**
 * etcd's etcd_network_* peer families (labels To, From, Local, Remote: member IDs in hex). A peer
 * link binds its children once ({@link #link}); the receiving side binds per stream
 * ({@link #receivedFrom}).
 */
public final class PeerMetrics {
    private static final Counter SENT_BYTES = Metrics.counter("etcd_network_peer_sent_bytes_total",
            "The total number of bytes sent to peers.", "To");
    private static final Counter RECEIVED_BYTES = Metrics.counter("etcd_network_peer_received_bytes_total",
            "The total number of bytes received from peers.", "From");
    private static final Counter SENT_FAILURES = Metrics.counter("etcd_network_peer_sent_failures_total",
            "The total number of send failures from peers.", "To");
    private static final Counter RECEIVED_FAILURES = Metrics.counter("etcd_network_peer_received_failures_total",
            "The total number of receive failures from peers.", "From");
    private static final Counter SNAPSHOT_SEND = Metrics.counter("etcd_network_snapshot_send_success",
            "Total number of successful snapshot sends", "To");
    private static final Counter SNAPSHOT_SEND_FAILURES = Metrics.counter("etcd_network_snapshot_send_failures",
            "Total number of snapshot send failures", "To");
    private static final Histogram SNAPSHOT_SEND_SECONDS = Metrics.histogram("etcd_network_snapshot_send_total_duration_seconds",
            "Total latency distributions of v3 snapshot sends", 0.1, 10, "To");
    private static final Counter SNAPSHOT_RECEIVE = Metrics.counter("etcd_network_snapshot_receive_success",
            "Total number of successful snapshot receives", "From");
    private static final Counter SNAPSHOT_RECEIVE_FAILURES = Metrics.counter("etcd_network_snapshot_receive_failures",
            "Total number of snapshot receive failures", "From");
    private static final Histogram SNAPSHOT_RECEIVE_SECONDS = Metrics.histogram(
            "etcd_network_snapshot_receive_total_duration_seconds",
            "Total latency distributions of v3 snapshot receives", 0.1, 10, "From");
    private static final Histogram ROUND_TRIP_SECONDS = Metrics.histogram("etcd_network_peer_round_trip_time_seconds",
            "Round-Trip-Time histogram between peers", 0.0001, 16, "To");
    private static final Gauge ACTIVE_PEERS = Metrics.gauge("etcd_network_active_peers",
            "The current number of active peer connections.", "Local", "Remote");
    private static final Counter DISCONNECTED_PEERS = Metrics.counter("etcd_network_disconnected_peers_total",
            "The total number of disconnected peers.", "Local", "Remote");

    private final String local;
    private final String remote;
    private final CounterDataPoint sentBytes;
    private final CounterDataPoint sendFailures;

    private PeerMetrics(long localId, long peerId) {
        this.local = Long.toHexString(localId);
        this.remote = Long.toHexString(peerId);
        this.sentBytes = SENT_BYTES.labelValues(remote);
        this.sendFailures = SENT_FAILURES.labelValues(remote);
    }

    /** Loads the families (with Metrics). */
    static void init() {
        // the fields above register them
    }

    /** The children of the link from member {@code localId} to {@code peerId}. */
    public static PeerMetrics link(long localId, long peerId) {
        return new PeerMetrics(localId, peerId);
    }

    public void sent(int bytes) {
        sentBytes.inc(bytes);
    }

    /** A message dropped because the link's queue was full; {@code alsoCount} (etcd's heartbeat failures) when not null. */
    public void dropped(Counter alsoCount) {
        sendFailures.inc();
        if (alsoCount != null) {
            alsoCount.inc();
        }
    }

    public void sendFailed() {
        sendFailures.inc();
    }

    /** The link came up ({@code true}) or went down. */
    public void active(boolean up) {
        GaugeDataPoint g = ACTIVE_PEERS.labelValues(local, remote);
        if (up) {
            g.set(1);
        } else {
            g.set(0);
            DISCONNECTED_PEERS.labelValues(local, remote).inc();
        }
    }

    public void snapshotSent(boolean ok, long startNanos) {
        (ok ? SNAPSHOT_SEND : SNAPSHOT_SEND_FAILURES).labelValues(remote).inc();
        if (ok) {
            SNAPSHOT_SEND_SECONDS.labelValues(remote).observe((System.nanoTime() - startNanos) / 1e9);
        }
    }

    /** A probe's round trip to {@code peerId}. */
    public static void roundTrip(long peerId, long nanos) {
        ROUND_TRIP_SECONDS.labelValues(Long.toHexString(peerId)).observe(nanos / 1e9);
    }

    /** The counter of bytes received from {@code from}, to bind once per incoming stream. */
    public static CounterDataPoint receivedFrom(long from) {
        return RECEIVED_BYTES.labelValues(Long.toHexString(from));
    }

    public static void receiveFailed(long from) {
        RECEIVED_FAILURES.labelValues(Long.toHexString(from)).inc();
    }

    public static void snapshotReceived(long from, boolean ok, long startNanos) {
        (ok ? SNAPSHOT_RECEIVE : SNAPSHOT_RECEIVE_FAILURES).labelValues(Long.toHexString(from)).inc();
        if (ok) {
            DistributionDataPoint h = SNAPSHOT_RECEIVE_SECONDS.labelValues(Long.toHexString(from));
            h.observe((System.nanoTime() - startNanos) / 1e9);
        }
    }
}
