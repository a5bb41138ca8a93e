package io.etcdj.benchmark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class ReportPrinterTest {
    private static String print(RunSummary run) {
        StringWriter text = new StringWriter();
        ReportPrinter.print(new PrintWriter(text), run);
        return text.toString();
    }

    private static RunSummary oneToHundredMillis(Map<String, Long> errors) {
        long[] lat = LongStream.rangeClosed(1, 100).map(m -> m * 1_000_000L).toArray();
        return RunSummary.of("put", 10, 2, 100 + errors.values().stream().mapToLong(Long::longValue).sum(),
                new RunResult(lat, errors, 500_000_000L));
    }

    @Test
    void printsEtcdStyleSummaryAndDistribution() {
        String out = print(oneToHundredMillis(Map.of()));
        String[] expectedInOrder = {
            "Summary:",
            "  Total:\t0.5000 secs.",
            "  Slowest:\t0.1000 secs.",
            "  Fastest:\t0.0010 secs.",
            "  Average:\t0.0505 secs.",
            "  Stddev:\t0.0289 secs.",
            "  Requests/sec:\t200.0000",
            "Response time histogram:",
            "Latency distribution:",
            "  10% in 0.0100 secs.",
            "  25% in 0.0250 secs.",
            "  50% in 0.0500 secs.",
            "  75% in 0.0750 secs.",
            "  90% in 0.0900 secs.",
            "  95% in 0.0950 secs.",
            "  99% in 0.0990 secs.",
            "  99.9% in 0.1000 secs.",
            "RESULT name=put clients=10 conns=2 total=100 ok=100 errors=0 rps=200.0 avg_ms=50.500 "
                    + "p50_ms=50.000 p90_ms=90.000 p99_ms=99.000 max_ms=100.000",
        };
        int from = 0;
        for (String line : expectedInOrder) {
            int at = out.indexOf(line + System.lineSeparator(), from);
            assertTrue(at >= from, () -> "missing or out of order: [" + line + "] in:\n" + out);
            from = at + line.length();
        }
        assertFalse(out.contains("Error distribution"));
    }

    @Test
    void histogramBarsScaleToTheFullestBucket() {
        String out = print(oneToHundredMillis(Map.of()));
        // 100 evenly spread latencies: the fastest alone in bucket 0, about ten in each other one.
        assertTrue(out.lines().anyMatch(l -> l.startsWith("  0.0010 [1]\t|\u220e")), out);
        long bars = out.lines().filter(l -> l.contains("\t|\u220e")).count();
        assertEquals(11, bars);
        assertTrue(out.lines().noneMatch(l -> l.contains("\u220e".repeat(41))));
        assertTrue(out.lines().anyMatch(l -> l.endsWith("|" + "\u220e".repeat(40))));
    }

    @Test
    void reportsErrorsAndCountsThemInResult() {
        String out = print(oneToHundredMillis(Map.of("rpc error: code = Unavailable desc = down", 3L)));
        assertTrue(out.contains("Error distribution:" + System.lineSeparator()
                + "  [3]\trpc error: code = Unavailable desc = down"), out);
        assertTrue(out.contains("RESULT name=put clients=10 conns=2 total=103 ok=100 errors=3 "), out);
    }

    @Test
    void runWithoutSuccessesPrintsOnlyTheSummary() {
        RunSummary failed = RunSummary.of("range-l", 1, 1, 2,
                new RunResult(new long[0], Map.of("boom", 2L), 1_000_000L));
        String out = print(failed);
        assertFalse(out.contains("Latency distribution"));
        assertTrue(out.contains("RESULT name=range-l clients=1 conns=1 total=2 ok=0 errors=2 rps=0.0 "), out);
    }
}
