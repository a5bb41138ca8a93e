package io.etcdj.server.metrics;

import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryUsage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Prometheus' standard process_* families (read from /proc on Linux, as Go's client reads them)
 * and JVM families in place of Go's go_*: what etcd dashboards and {@code etcdctl check
 * datascale} (process_resident_memory_bytes) read.
 */
final class ProcessMetrics {
    private static final Path PROC = Path.of("/proc/self");
    private static final long START_MILLIS = ManagementFactory.getRuntimeMXBean().getStartTime();

    private ProcessMetrics() {
    }

    static void render(StringBuilder sb) {
        List<String> stat = stat();
        long pageSize = 4096;
        if (stat.size() > 23) {
            double ticks = 100.0;
            double cpu = (Long.parseLong(stat.get(13)) + Long.parseLong(stat.get(14))) / ticks;
            counter(sb, "process_cpu_seconds_total", "Total user and system CPU time spent in seconds.", cpu);
            Metrics.gauge(sb, "process_resident_memory_bytes", "Resident memory size in bytes.",
                    Long.parseLong(stat.get(23)) * pageSize);
            Metrics.gauge(sb, "process_virtual_memory_bytes", "Virtual memory size in bytes.", Long.parseLong(stat.get(22)));
        }
        try (Stream<Path> fds = Files.list(PROC.resolve("fd"))) {
            long open = fds.count();
            Metrics.gauge(sb, "process_open_fds", "Number of open file descriptors.", open);
            Metrics.gauge(sb, "os_fd_used", "The number of used file descriptors.", open);
        } catch (IOException | RuntimeException e) {
            // not on Linux: the family is left out, as Go's client does
        }
        long maxFds = limit("Max open files");
        if (maxFds >= 0) {
            Metrics.gauge(sb, "process_max_fds", "Maximum number of open file descriptors.", maxFds);
            Metrics.gauge(sb, "os_fd_limit", "The file descriptor limit.", maxFds);
        }
        double start = START_MILLIS / 1000.0;
        sb.append("# HELP process_start_time_seconds Start time of the process since unix epoch in seconds.\n")
                .append("# TYPE process_start_time_seconds gauge\n")
                .append("process_start_time_seconds ").append(start).append('\n');
        jvm(sb);
    }

    private static void jvm(StringBuilder sb) {
        var mem = ManagementFactory.getMemoryMXBean();
        sb.append("# HELP jvm_memory_bytes_used Used bytes of a given JVM memory area.\n# TYPE jvm_memory_bytes_used gauge\n")
                .append("jvm_memory_bytes_used{area=\"heap\"} ").append(mem.getHeapMemoryUsage().getUsed()).append('\n')
                .append("jvm_memory_bytes_used{area=\"nonheap\"} ").append(mem.getNonHeapMemoryUsage().getUsed()).append('\n');
        sb.append("# HELP jvm_memory_bytes_max Max (bytes) of a given JVM memory area.\n# TYPE jvm_memory_bytes_max gauge\n")
                .append("jvm_memory_bytes_max{area=\"heap\"} ").append(mem.getHeapMemoryUsage().getMax()).append('\n')
                .append("jvm_memory_bytes_max{area=\"nonheap\"} ").append(mem.getNonHeapMemoryUsage().getMax()).append('\n');
        sb.append("# HELP jvm_memory_pool_bytes_used Used bytes of a given JVM memory pool.\n# TYPE jvm_memory_pool_bytes_used gauge\n");
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            MemoryUsage u = p.getUsage();
            if (u != null) {
                sb.append("jvm_memory_pool_bytes_used{pool=\"").append(p.getName()).append("\"} ").append(u.getUsed()).append('\n');
            }
        }
        Metrics.gauge(sb, "jvm_threads_current", "Current thread count of a JVM.",
                ManagementFactory.getThreadMXBean().getThreadCount());
        sb.append("# HELP jvm_gc_collection_seconds Time spent in a given JVM garbage collector in seconds.\n")
                .append("# TYPE jvm_gc_collection_seconds summary\n");
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            sb.append("jvm_gc_collection_seconds_count{gc=\"").append(gc.getName()).append("\"} ")
                    .append(Math.max(0, gc.getCollectionCount())).append('\n')
                    .append("jvm_gc_collection_seconds_sum{gc=\"").append(gc.getName()).append("\"} ")
                    .append(Math.max(0, gc.getCollectionTime()) / 1000.0).append('\n');
        }
        sb.append("# HELP jvm_info VM version info\n# TYPE jvm_info gauge\n")
                .append("jvm_info{runtime=\"").append(System.getProperty("java.runtime.name", ""))
                .append("\",vendor=\"").append(System.getProperty("java.vendor", ""))
                .append("\",version=\"").append(System.getProperty("java.version", "")).append("\"} 1\n");
    }

    private static void counter(StringBuilder sb, String name, String help, double v) {
        sb.append("# HELP ").append(name).append(' ').append(help).append('\n')
                .append("# TYPE ").append(name).append(" counter\n")
                .append(name).append(' ').append(v).append('\n');
    }

    /** /proc/self/stat's fields, the command name (which may hold spaces) counted as one. */
    private static List<String> stat() {
        try {
            String s = Files.readString(PROC.resolve("stat"));
            int close = s.lastIndexOf(')');
            List<String> rest = List.of(s.substring(close + 2).trim().split("\\s+"));
            return Stream.concat(Stream.of("pid", "comm"), rest.stream()).toList();
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
    }

    private static long limit(String name) {
        try {
            for (String line : Files.readAllLines(PROC.resolve("limits"))) {
                if (line.startsWith(name)) {
                    String soft = line.substring(name.length()).trim().split("\\s+")[0];
                    return soft.equals("unlimited") ? -1 : Long.parseLong(soft);
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }
}
