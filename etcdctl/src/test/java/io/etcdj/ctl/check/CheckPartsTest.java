package io.etcdj.ctl.check;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.etcdj.ctl.printer.Out;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CheckPartsTest {

    private static byte[] varint(long x) {
        byte[] b = new byte[4];
        WriterPool.putVarint(b, x);
        return b;
    }

    @Test
    void putVarintZigZagsLikeGo() {
        assertArrayEquals(new byte[] {2, 0, 0, 0}, varint(1));
        assertArrayEquals(new byte[] {1, 0, 0, 0}, varint(-1));
        assertArrayEquals(new byte[] {(byte) 0x80, 1, 0, 0}, varint(64));
        assertArrayEquals(new byte[] {(byte) 0xD8, 4, 0, 0}, varint(300));
    }

    @Test
    void goDurationText() {
        assertEquals("0s", ProgressCounter.goSeconds(0));
        assertEquals("59s", ProgressCounter.goSeconds(59));
        assertEquals("1m0s", ProgressCounter.goSeconds(60));
        assertEquals("1h2m3s", ProgressCounter.goSeconds(3723));
    }

    @Test
    void statsGivePopulationStddevAndSlowest() {
        LatencyStats s = new LatencyStats();
        s.success(1);
        s.success(3);
        s.failure("boom");
        s.failure("boom");
        assertEquals(1.0, s.stddev(), 1e-12);
        assertEquals(3.0, s.slowest());
        assertEquals(0.5, s.requestsPerSecond(4));
        assertEquals(Map.of("boom", 2), s.errors());
    }

    @Test
    void loadsByEtcdctlNames() {
        assertEquals(PerfLoad.XLARGE, PerfLoad.byName("xLarge").orElseThrow());
        assertEquals(PerfLoad.MEDIUM, PerfLoad.byName("m").orElseThrow());
        assertEquals(true, PerfLoad.byName("XL").isEmpty());
        assertEquals(DatascaleLoad.LARGE, DatascaleLoad.byName("large").orElseThrow());
    }

    /** The clean-up's progress line is drawn only after the counter ended its own line (see CheckCommand). */
    @Test
    void aCounterEndsItsLineOnlyWhenItFinishes() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Out out = new Out(new PrintStream(bytes, true,
                StandardCharsets.UTF_8));
        ProgressCounter cut = ProgressCounter.steps(out, 10, 0);
        cut.increment();
        cut.close();
        assertEquals(false, cut.endedItsLine(), "stopped by close: its text is where the next output goes");
        ProgressCounter done = ProgressCounter.steps(out, 1, 0);
        done.increment();
        done.finish();
        done.close();
        assertEquals(true, done.endedItsLine());
        assertEquals(true, bytes.toString(StandardCharsets.UTF_8).endsWith("\n"));
    }

    /** Frames etcdctl 3.4's check datascale drew with a controlling terminal 100 columns wide. */
    @Test
    void withATerminalWidthTheCounterIsEtcdctlsBar() {
        assertEquals(" 0 / 10000 B" + " ".repeat(79) + "!   0.00%", ProgressCounter.layout(0, 10000, "", 100));
        assertEquals(" 1642 / 10000 B" + "o".repeat(11) + "m" + " ".repeat(57) + "!  16.42% 00m01s",
                ProgressCounter.layout(1642, 10000, " 00m01s", 100));
        assertEquals(" 10000 / 10000 B" + "o".repeat(72) + "! 100.00% 1s", ProgressCounter.layout(10000, 10000, " 1s", 100));
    }

    /** Without a terminal width: etcdctl's counter in a file or pipe written with no controlling terminal. */
    @Test
    void withoutAWidthNoBarAndNoPadding() {
        assertEquals(" 3416 / 10000   34.16%", ProgressCounter.layout(3416, 10000, "", 0));
        assertEquals(" 60 / 60  100.00% 1m0s", ProgressCounter.layout(60, 60, " 1m0s", 0));
    }
}
