package io.etcdj.server.metrics;

import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import io.prometheus.metrics.core.datapoints.GaugeDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.Histogram;

/**
 * etcd's etcd_network_* peer families (labels To, From, Local, Remote: member IDs in hex), in one
 * member's registry. A peer link binds its children once ({@link #link}); the receiving side binds
 * per stream ({@link #receivedFrom}).
 */
public final class PeerMetrics {
    private final Counter sentBytes;
    private final Counter receivedBytes;
    private final Counter sentFailures;
    private final Counter receivedFailures;
    private final Counter snapshotSend;
    private final Counter snapshotSendFailures;
    private final Histogram snapshotSendSeconds;
    private final Counter snapshotReceive;
    private final Counter snapshotReceiveFailures;
    private final Histogram snapshotReceiveSeconds;
    private final Histogram roundTripSeconds;
    private final Gauge activePeers;
    private final Counter disconnectedPeers;

    PeerMetrics(Metrics m) {
        sentBytes = m.counter("etcd_network_peer_sent_bytes_total", "The total number of bytes sent to peers.", "To");
        receivedBytes = m.counter("etcd_network_peer_received_bytes_total", "The total number of bytes received from peers.", "From");
        sentFailures = m.counter("etcd_network_peer_sent_failures_total", "The total number of send failures from peers.", "To");
        receivedFailures = m.counter("etcd_network_peer_received_failures_total",
                "The total number of receive failures from peers.", "From");
        snapshotSend = m.counter("etcd_network_snapshot_send_success", "Total number of successful snapshot sends", "To");
        snapshotSendFailures = m.counter("etcd_network_snapshot_send_failures", "Total number of snapshot send failures", "To");
        snapshotSendSeconds = m.histogram("etcd_network_snapshot_send_total_duration_seconds",
                "Total latency distributions of v3 snapshot sends", 0.1, 10, "To");
        snapshotReceive = m.counter("etcd_network_snapshot_receive_success", "Total number of successful snapshot receives", "From");
        snapshotReceiveFailures = m.counter("etcd_network_snapshot_receive_failures",
                "Total number of snapshot receive failures", "From");
        snapshotReceiveSeconds = m.histogram("etcd_network_snapshot_receive_total_duration_seconds",
                "Total latency distributions of v3 snapshot receives", 0.1, 10, "From");
        roundTripSeconds = m.histogram("etcd_network_peer_round_trip_time_seconds",
                "Round-Trip-Time histogram between peers", 0.0001, 16, "To");
        activePeers = m.gauge("etcd_network_active_peers", "The current number of active peer connections.", "Local", "Remote");
        disconnectedPeers = m.counter("etcd_network_disconnected_peers_total", "The total number of disconnected peers.",
                "Local", "Remote");
    }

    /** The children of the link from member {@code localId} to {@code peerId}. */
    public Link link(long localId, long peerId) {
        return new Link(localId, peerId);
    }

    /** A probe's round trip to {@code peerId}. */
    public void roundTrip(long peerId, long nanos) {
        roundTripSeconds.labelValues(Long.toHexString(peerId)).observe(nanos / 1e9);
    }

    /** The counter of bytes received from {@code from}, to bind once per incoming stream. */
    public CounterDataPoint receivedFrom(long from) {
        return receivedBytes.labelValues(Long.toHexString(from));
    }

    public void receiveFailed(long from) {
        receivedFailures.labelValues(Long.toHexString(from)).inc();
    }

    public void snapshotReceived(long from, boolean ok, long startNanos) {
        (ok ? snapshotReceive : snapshotReceiveFailures).labelValues(Long.toHexString(from)).inc();
        if (ok) {
            DistributionDataPoint h = snapshotReceiveSeconds.labelValues(Long.toHexString(from));
            h.observe((System.nanoTime() - startNanos) / 1e9);
        }
    }

    /** One outgoing link's children, bound once. */
    public final class Link {
        private final String local;
        private final String remote;
        private final CounterDataPoint linkSentBytes;
        private final CounterDataPoint sendFailures;

        private Link(long localId, long peerId) {
            this.local = Long.toHexString(localId);
            this.remote = Long.toHexString(peerId);
            this.linkSentBytes = sentBytes.labelValues(remote);
            this.sendFailures = sentFailures.labelValues(remote);
        }

        public void sent(int bytes) {
            linkSentBytes.inc(bytes);
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
            GaugeDataPoint g = activePeers.labelValues(local, remote);
            if (up) {
                g.set(1);
            } else {
                g.set(0);
                disconnectedPeers.labelValues(local, remote).inc();
            }
        }

        public void snapshotSent(boolean ok, long startNanos) {
            (ok ? snapshotSend : snapshotSendFailures).labelValues(remote).inc();
            if (ok) {
                snapshotSendSeconds.labelValues(remote).observe((System.nanoTime() - startNanos) / 1e9);
            }
        }
    }
}
