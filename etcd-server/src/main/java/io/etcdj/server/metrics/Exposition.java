package io.etcdj.server.metrics;

import io.etcdj.server.version.Versions;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * /metrics: the registry's families and the member's scrape-time gauges, in the Prometheus text
 * format 0.0.4 written by the client library's {@link PrometheusTextFormatWriter}. The library
 * ends every counter's name in {@code _total}; the few counters etcd names without it
 * ({@link Metrics#noTotalSuffix}) get their etcd names back here. One per member's {@link Metrics}.
 */
public final class Exposition {
    public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";
    private static final PrometheusTextFormatWriter WRITER = PrometheusTextFormatWriter.create();
    private final Metrics metrics;
    private final Gauge scrapesInFlight;
    private final Counter scrapes;

    private static final Pattern JAVA_EXPONENT = Pattern.compile("le=\"(-?[0-9.]+E-?[0-9]+)\"");

    Exposition(Metrics metrics) {
        this.metrics = metrics;
        scrapesInFlight = metrics.gauge("promhttp_metric_handler_requests_in_flight", "Current number of scrapes being served.");
        scrapes = metrics.counter("promhttp_metric_handler_requests_total", "Total number of scrapes by HTTP status code.", "code");
        for (String code : new String[] {"200", "500", "503"}) {
            scrapes.labelValues(code);
        }
    }

    /** The whole exposition, with the member's values read at scrape time. */
    String render(Metrics.Gauges server) {
        scrapesInFlight.inc();
        try {
            List<MetricSnapshot> all = new ArrayList<>(256);
            metrics.registry.scrape().forEach(all::add);
            all.addAll(serverGauges(server));
            ByteArrayOutputStream out = new ByteArrayOutputStream(64 * 1024);
            WRITER.write(out, new MetricSnapshots(all));
            String text = goBucketBounds(etcdCounterNames(metrics, out.toString(StandardCharsets.UTF_8)));
            scrapes.labelValues("200").inc();
            return text;
        } catch (IOException e) {
            scrapes.labelValues("500").inc();
            throw new UncheckedIOException(e);
        } finally {
            scrapesInFlight.dec();
        }
    }

    /** Only the families of {@code metrics} whose names pass {@code names}, with no member gauges. */
    static String render(Metrics metrics, Predicate<String> names) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream(4096);
            WRITER.write(out, metrics.registry.scrape(names));
            return goBucketBounds(etcdCounterNames(metrics, out.toString(StandardCharsets.UTF_8)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Bucket bounds as Go writes them: the library prints Java's doubles ("1.0E-4"), etcd Go's
     * shortest form ("0.0001", "1e-05"), and dashboards match the label's text.
     */
    static String goBucketBounds(String text) {
        if (!text.contains("E")) {
            return text;
        }
        Matcher m = JAVA_EXPONENT.matcher(text);
        StringBuilder sb = new StringBuilder(text.length());
        while (m.find()) {
            m.appendReplacement(sb, "le=\"" + goFloat(m.group(1)) + "\"");
        }
        m.appendTail(sb);
        return sb.toString();
    }

    /** Go's strconv.FormatFloat(f, 'g', -1, 64) of a number Java printed. */
    static String goFloat(String javaText) {
        BigDecimal d = new BigDecimal(javaText).stripTrailingZeros();
        if (d.signum() == 0) {
            return "0";
        }
        int exp = d.precision() - d.scale() - 1;
        if (exp >= -4 && exp < 21) {
            return d.toPlainString();
        }
        String digits = d.unscaledValue().abs().toString();
        String mantissa = digits.length() > 1 ? digits.charAt(0) + "." + digits.substring(1) : digits;
        return (d.signum() < 0 ? "-" : "") + mantissa + "e" + (exp < 0 ? "-" : "+") + String.format("%02d", Math.abs(exp));
    }

    static String etcdCounterNames(Metrics metrics, String text) {
        String s = text;
        for (String name : metrics.noTotalSuffix) {
            String wrong = name + "_total";
            s = s.replace("# HELP " + wrong + " ", "# HELP " + name + " ")
                    .replace("# TYPE " + wrong + " ", "# TYPE " + name + " ")
                    .replace("\n" + wrong + " ", "\n" + name + " ")
                    .replace("\n" + wrong + "{", "\n" + name + "{");
        }
        return s;
    }

    private List<MetricSnapshot> serverGauges(Metrics.Gauges g) {
        List<MetricSnapshot> out = new ArrayList<>();
        add(out, "etcd_server_proposals_committed_total", "The total number of consensus proposals committed.", g.committedIndex());
        add(out, "etcd_server_proposals_pending", "The current number of pending proposals to commit.", g.proposalsPending());
        add(out, "etcd_server_quota_backend_bytes", "Current backend storage quota size in bytes.", g.quotaBackendBytes());
        add(out, "etcd_server_is_learner", "Whether or not this member is a learner. 1 if is, 0 otherwise.", g.learner() ? 1 : 0);
        add(out, "etcd_mvcc_db_total_size_in_bytes", "Total size of the underlying database physically allocated in bytes.",
                g.dbSize());
        add(out, "etcd_debugging_mvcc_db_total_size_in_bytes",
                "Total size of the underlying database physically allocated in bytes.", g.dbSize());
        add(out, "etcd_mvcc_db_total_size_in_use_in_bytes", "Total size of the underlying database logically in use in bytes.",
                g.dbSizeInUse());
        // etcd 3.4 exports its request counts twice, under etcd_mvcc_ and etcd_debugging_mvcc_
        count(out, "etcd_debugging_mvcc_range_total", "Total number of ranges seen by this member.", metrics.ranges.get());
        count(out, "etcd_debugging_mvcc_put_total", "Total number of puts seen by this member.", metrics.puts.get());
        count(out, "etcd_debugging_mvcc_delete_total", "Total number of deletes seen by this member.", metrics.deletes.get());
        count(out, "etcd_debugging_mvcc_txn_total", "Total number of txns seen by this member.", metrics.txns.get());
        add(out, "etcd_debugging_mvcc_current_revision", "The current revision of store.", g.revision());
        // etcd reports -1 until the first compaction
        add(out, "etcd_debugging_mvcc_compact_revision", "The revision of the last compaction in store.",
                g.compactRevision() == 0 ? -1 : g.compactRevision());
        add(out, "etcd_debugging_mvcc_keys_total", "Total number of keys.", g.keys());
        add(out, "etcd_debugging_mvcc_watcher_total", "Total number of watchers.", g.watchers());
        add(out, "etcd_debugging_mvcc_slow_watcher_total", "Total number of unsynced slow watchers.", g.slowWatchers());
        add(out, "etcd_debugging_auth_revision", "The current revision of auth store.", g.authRevision());
        label(out, "etcd_server_id", "Server or member ID in hexadecimal format. 1 for 'server_id' label with current ID.",
                "server_id", Long.toHexString(g.memberId()));
        label(out, "etcd_cluster_version",
                "Which version is running. 1 for 'cluster_version' label with current cluster version",
                "cluster_version", g.clusterVersion());
        label(out, "etcd_server_version", "Which version is running. 1 for 'server_version' label with current version.",
                "server_version", Versions.SERVER);
        // Go's version in etcd; the Java runtime's here (docs/operations.md)
        label(out, "etcd_server_go_version",
                "Which Go version server is running with. 1 for 'server_go_version' label with current version.",
                "server_go_version", "java" + Runtime.version());
        return out;
    }

    private static void add(List<MetricSnapshot> out, String name, String help, double value) {
        out.add(GaugeSnapshot.builder().name(name).help(help)
                .dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().value(value).build()).build());
    }

    private static void count(List<MetricSnapshot> out, String name, String help, double value) {
        out.add(CounterSnapshot.builder().name(name).help(help)
                .dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().value(value).build()).build());
    }

    private static void label(List<MetricSnapshot> out, String name, String help, String label, String value) {
        out.add(GaugeSnapshot.builder().name(name).help(help)
                .dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(Labels.of(label, value)).value(1).build())
                .build());
    }
}
