package io.etcdj.benchmark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class LatencyStatsTest {
    private static final long MS = 1_000_000L;

    private static long[] millis(long... ms) {
        return Arrays.stream(ms).map(m -> m * MS).toArray();
    }

    @Test
    void summaryOfKnownSample() {
        // Population standard deviation of 2,4,4,4,5,5,7,9 is exactly 2, the mean 5.
        LatencyStats s = new LatencyStats(millis(9, 4, 2, 5, 4, 7, 4, 5), 2_000 * MS);
        assertEquals(8, s.count());
        assertEquals(0.002, s.fastest(), 1e-12);
        assertEquals(0.009, s.slowest(), 1e-12);
        assertEquals(0.005, s.average(), 1e-12);
        assertEquals(0.002, s.stddev(), 1e-12);
        assertEquals(2.0, s.totalSeconds(), 1e-12);
        assertEquals(4.0, s.requestsPerSecond(), 1e-12);
    }

    @Test
    void percentilesUseNearestRank() {
        long[] oneToThousand = LongStream.rangeClosed(1, 1000).map(m -> m * MS).toArray();
        // Shuffle-independent: stats sort a copy.
        long[] reversed = LongStream.rangeClosed(1, 1000).map(i -> (1001 - i) * MS).toArray();
        for (long[] sample : new long[][] {oneToThousand, reversed}) {
            LatencyStats s = new LatencyStats(sample, 1_000 * MS);
            assertEquals(0.100, s.percentile(10), 1e-12);
            assertEquals(0.500, s.percentile(50), 1e-12);
            assertEquals(0.990, s.percentile(99), 1e-12);
            assertEquals(0.999, s.percentile(99.9), 1e-12);
            assertEquals(1.000, s.percentile(100), 1e-12);
        }
        LatencyStats four = new LatencyStats(millis(10, 20, 30, 40), MS);
        assertEquals(0.010, four.percentile(10), 1e-12);
        assertEquals(0.010, four.percentile(25), 1e-12);
        assertEquals(0.020, four.percentile(50), 1e-12);
        assertEquals(0.030, four.percentile(75), 1e-12);
        assertEquals(0.040, four.percentile(90), 1e-12);
        assertEquals(0.040, four.percentile(99.9), 1e-12);
    }

    @Test
    void inputArrayIsNotReordered() {
        long[] sample = millis(3, 1, 2);
        new LatencyStats(sample, MS).percentile(50);
        assertEquals(3 * MS, sample[0]);
    }

    @Test
    void emptyRunHasZeroFigures() {
        LatencyStats s = new LatencyStats(new long[0], 5 * MS);
        assertEquals(0, s.count());
        assertEquals(0, s.requestsPerSecond());
        assertEquals(0, s.percentile(99));
        assertEquals(0, s.stddev());
    }

    @Test
    void rejectsPercentileOutOfRange() {
        LatencyStats s = new LatencyStats(millis(1), MS);
        assertThrows(IllegalArgumentException.class, () -> s.percentile(0));
        assertThrows(IllegalArgumentException.class, () -> s.percentile(100.1));
    }

    @Test
    void histogramSpansFastestToSlowestAndCountsEveryLatency() {
        LatencyStats s = new LatencyStats(millis(10, 11, 15, 15, 20, 110), MS);
        double[] marks = new double[11];
        long[] counts = s.histogram(10, marks);
        assertEquals(0.010, marks[0], 1e-12);
        assertEquals(0.020, marks[1], 1e-12);
        assertEquals(0.110, marks[10], 1e-12);
        assertEquals(6, Arrays.stream(counts).sum());
        assertEquals(1, counts[0]); // only the fastest itself
        assertEquals(4, counts[1]); // 11, 15, 15, 20 are in (10, 20]
        assertEquals(1, counts[10]);
    }
}
