package io.etcdj.ctl.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.ctl.check.LatencyStats;
import io.etcdj.ctl.check.PerfLoad;
import io.etcdj.ctl.check.PerfRun;
import io.etcdj.ctl.printer.Out;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** check perf's criteria and texts on made-up measurements. */
class CheckVerdictTest {

    private static String verdict(LatencyStats stats, double seconds, boolean expectPass) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        boolean ok = CheckCommand.Perf.verdict(new Out(new PrintStream(bytes, true, StandardCharsets.UTF_8)),
                new PerfRun.Result(stats, seconds), PerfLoad.SMALL);
        assertEquals(expectPass, ok);
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static LatencyStats requests(int n, double latency) {
        LatencyStats s = new LatencyStats();
        for (int i = 0; i < n; i++) {
            s.success(latency);
        }
        return s;
    }

    @Test
    void passesAbove90PercentOfTheRate() {
        assertEquals("PASS: Throughput is 137 writes/s\nPASS: Slowest request took 0.010000s\nPASS: Stddev is 0.000000s\n",
                verdict(requests(1360, 0.01), 10, true));
    }

    @Test
    void failsAtOrBelow90PercentAndOnSlowOrErrors() {
        assertTrue(verdict(requests(1350, 0.01), 10, false).startsWith("FAIL: Throughput too low: 136 writes/s\n"));
        LatencyStats slow = requests(1500, 0.01);
        slow.success(0.6);
        String out = verdict(slow, 10, false);
        assertTrue(out.contains("Slowest request took too long: 0.600000s\n"), out);
        LatencyStats failed = requests(1500, 0.01);
        failed.failure("etcdserver: request timed out");
        out = verdict(failed, 10, false);
        assertTrue(out.startsWith("FAIL: too many errors\nFAIL: ERROR(etcdserver: request timed out) -> 1\n"), out);
        assertFalse(out.contains("Throughput too low"), out);
    }
}
