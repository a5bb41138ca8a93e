package io.etcdj.server.metrics;

import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * process_* and the JVM's families from the client library's JVM instrumentation (jvm_* stand in
 * for Go's go_*), plus what Go's client and etcd add on Linux: process_virtual_memory_max_bytes
 * and etcd's os_fd_used / os_fd_limit, read from /proc. {@code etcdctl check datascale} reads
 * process_resident_memory_bytes.
 */
final class ProcessMetrics implements MultiCollector {
    private static final Path PROC = Path.of("/proc/self");

    private ProcessMetrics() {
    }

    static void register(PrometheusRegistry registry) {
        registry.register(new LazyJvmMetrics());
        registry.register(new ProcessMetrics());
    }

    /**
     * The client library's JVM instrumentation, built on the first scrape rather than at start:
     * it starts the JVM's management beans (JMX: some 300 classes and their objects, a few MB
     * resident and tens of milliseconds of start-up), which a member nobody scrapes never needs.
     */
    private static final class LazyJvmMetrics implements MultiCollector {
        private volatile PrometheusRegistry jvm;

        @Override
        public MetricSnapshots collect() {
            PrometheusRegistry r = jvm;
            if (r == null) {
                synchronized (this) {
                    r = jvm;
                    if (r == null) {
                        r = new PrometheusRegistry();
                        JvmMetrics.builder().register(r);
                        jvm = r;
                    }
                }
            }
            return r.scrape();
        }
    }

    @Override
    public MetricSnapshots collect() {
        List<MetricSnapshot> out = new ArrayList<>(3);
        try (Stream<Path> fds = Files.list(PROC.resolve("fd"))) {
            out.add(gauge("os_fd_used", "The number of used file descriptors.", fds.count()));
        } catch (IOException | RuntimeException e) {
            // not on Linux: the family is left out, as etcd leaves it out there
        }
        double maxFds = limit("Max open files");
        if (!Double.isNaN(maxFds)) {
            out.add(gauge("os_fd_limit", "The file descriptor limit.", maxFds));
        }
        double maxVm = limit("Max address space");
        if (!Double.isNaN(maxVm)) {
            out.add(gauge("process_virtual_memory_max_bytes", "Maximum amount of virtual memory available in bytes.", maxVm));
        }
        return new MetricSnapshots(out);
    }

    @Override
    public List<String> getPrometheusNames() {
        return List.of("os_fd_used", "os_fd_limit", "process_virtual_memory_max_bytes");
    }

    private static GaugeSnapshot gauge(String name, String help, double v) {
        return GaugeSnapshot.builder().name(name).help(help)
                .dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().value(v).build()).build();
    }

    /** A soft limit from /proc/self/limits; "unlimited" as Go's client reports it (2^64 - 1); NaN when unreadable. */
    private static double limit(String name) {
        try {
            for (String line : Files.readAllLines(PROC.resolve("limits"))) {
                if (line.startsWith(name)) {
                    String soft = line.substring(name.length()).trim().split("\\s+")[0];
                    return soft.equals("unlimited") ? 18446744073709551615.0 : Double.parseDouble(soft);
                }
            }
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
        return Double.NaN;
    }
}
