package io.etcdj.server.slowlog;

import com.google.protobuf.Message;
import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.api.etcdserverpb.RangeResponse;
import io.etcdj.cli.GoDuration;
import io.etcdj.server.log.Log;
import io.etcdj.server.log.LogSink;
import io.etcdj.server.metrics.Metrics;
import java.time.Duration;
import java.util.concurrent.CompletionException;

/**
 * etcd's "apply request took too long" warning: an applied Raft request that took longer than
 * --warning-apply-duration is logged with its text (put values replaced by their size), the size
 * of its response and its error, and counted in {@code etcd_server_slow_apply_total}.
 */
public final class SlowApplies {
    /** The member's logger (its sink, see MemberContext). */
    private final Log log;

    private final Metrics metrics;

    /** The member's slow-request warnings, counted into its {@code metrics} (etcd_server_slow_apply_total). */
    public SlowApplies(Metrics metrics, LogSink logs) {
        this.metrics = metrics;
        this.log = logs.logger("etcdserver/util");
    }

    /** Logs the request if it ran longer than {@code threshold} since {@code startNanos}. */
    public void check(Duration threshold, long startNanos, Message request, Message response, Throwable error) {
        long took = System.nanoTime() - startNanos;
        if (took <= threshold.toNanos()) {
            return;
        }
        try {
            warn(threshold, took, request, response, error);
        } catch (RuntimeException e) {
            // a warning must never stop the apply loop that called it
            log.warn("apply request took too long", e, "took", GoDuration.format(took), "format-error", String.valueOf(e));
        }
    }

    /**
     * etcd's warning for a read-only range (prefix {@code "read-only range "}): a Range that took
     * longer than the threshold from its arrival to its answer (the ReadIndex wait included).
     */
    public void checkRange(Duration threshold, long startNanos, RangeRequest request, RangeResponse response, Throwable error) {
        long took = System.nanoTime() - startNanos;
        if (took <= threshold.toNanos()) {
            return;
        }
        try {
            String resp = response == null ? ""
                    : "range_response_count:" + response.getKvsCount() + " size:" + response.getSerializedSize();
            Throwable cause = error instanceof CompletionException && error.getCause() != null
                    ? error.getCause() : error;
            if (cause == null) {
                log.warn("apply request took too long", "took", GoDuration.format(took), "expected-duration",
                        GoDuration.format(threshold.toNanos()), "prefix", "read-only range ", "request", GoText.of(request),
                        "response", resp);
            } else {
                log.warn("apply request took too long", "took", GoDuration.format(took), "expected-duration",
                        GoDuration.format(threshold.toNanos()), "prefix", "read-only range ", "request", GoText.of(request),
                        "response", resp, "error", String.valueOf(cause.getMessage()));
            }
            metrics.slowApplies.inc();
        } catch (RuntimeException e) {
            log.warn("apply request took too long", e, "took", GoDuration.format(took), "format-error", String.valueOf(e));
        }
    }

    private void warn(Duration threshold, long took, Message request, Message response, Throwable error) {
        String resp = response == null ? "" : "size:" + response.getSerializedSize();
        if (error == null) {
            log.warn("apply request took too long", "took", GoDuration.format(took), "expected-duration",
                    GoDuration.format(threshold.toNanos()), "prefix", "", "request", ApplyText.of(request), "response", resp);
        } else {
            log.warn("apply request took too long", "took", GoDuration.format(took), "expected-duration",
                    GoDuration.format(threshold.toNanos()), "prefix", "", "request", ApplyText.of(request), "response", resp,
                    "error", String.valueOf(error.getMessage()));
        }
        metrics.slowApplies.inc();
    }
}
