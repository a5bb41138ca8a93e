package io.etcdj.benchmark;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.Map;

/**
 * Prints a run in the layout of etcd's benchmark report (summary, response time histogram,
 * latency distribution, errors), followed by one machine-readable line:
 * {@code RESULT name=put clients=1 conns=1 total=10000 ok=10000 errors=0 rps=... avg_ms=...
 * p50_ms=... p90_ms=... p99_ms=... max_ms=...} for scripts that compare runs.
 */
final class ReportPrinter {
    private static final int HISTOGRAM_BUCKETS = 10;
    private static final int BAR_WIDTH = 40;

    private ReportPrinter() {
    }

    static void print(PrintWriter out, RunSummary run) {
        LatencyStats s = run.stats();
        out.println();
        out.println("Summary:");
        out.printf(Locale.ROOT, "  Total:\t%4.4f secs.%n", s.totalSeconds());
        out.printf(Locale.ROOT, "  Slowest:\t%2.4f secs.%n", s.slowest());
        out.printf(Locale.ROOT, "  Fastest:\t%2.4f secs.%n", s.fastest());
        out.printf(Locale.ROOT, "  Average:\t%2.4f secs.%n", s.average());
        out.printf(Locale.ROOT, "  Stddev:\t%2.4f secs.%n", s.stddev());
        out.printf(Locale.ROOT, "  Requests/sec:\t%4.4f%n", s.requestsPerSecond());
        if (s.count() > 0) {
            printHistogram(out, s);
            out.println();
            out.println("Latency distribution:");
            for (double p : LatencyStats.PERCENTILES) {
                out.printf(Locale.ROOT, "  %s%% in %4.4f secs.%n", percentLabel(p), s.percentile(p));
            }
        }
        if (!run.errors().isEmpty()) {
            out.println();
            out.println("Error distribution:");
            for (Map.Entry<String, Long> e : run.errors().entrySet()) {
                out.printf(Locale.ROOT, "  [%d]\t%s%n", e.getValue(), e.getKey());
            }
        }
        out.println();
        out.println(resultLine(run));
        out.flush();
    }

    static String resultLine(RunSummary run) {
        LatencyStats s = run.stats();
        return String.format(Locale.ROOT,
                "RESULT name=%s clients=%d conns=%d total=%d ok=%d errors=%d rps=%.1f avg_ms=%.3f "
                        + "p50_ms=%.3f p90_ms=%.3f p99_ms=%.3f max_ms=%.3f",
                run.name(), run.clients(), run.conns(), run.total(), s.count(), run.errorCount(),
                s.requestsPerSecond(), s.average() * 1000, millis(s, 50), millis(s, 90), millis(s, 99),
                s.slowest() * 1000);
    }

    private static double millis(LatencyStats s, double p) {
        return s.count() == 0 ? 0 : s.percentile(p) * 1000;
    }

    private static void printHistogram(PrintWriter out, LatencyStats s) {
        double[] marks = new double[HISTOGRAM_BUCKETS + 1];
        long[] counts = s.histogram(HISTOGRAM_BUCKETS, marks);
        long max = 0;
        for (long c : counts) {
            max = Math.max(max, c);
        }
        out.println();
        out.println("Response time histogram:");
        for (int i = 0; i < counts.length; i++) {
            int bar = max == 0 ? 0 : (int) (counts[i] * BAR_WIDTH / max);
            out.printf(Locale.ROOT, "  %4.4f [%d]\t|%s%n", marks[i], counts[i], "\u220e".repeat(bar));
        }
    }

    private static String percentLabel(double p) {
        return p == Math.rint(p) ? String.valueOf((long) p) : String.valueOf(p);
    }
}
