package io.etcdj.server.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Bucket bounds in /metrics are written as Go writes them, so they read as etcd's. */
class ExpositionTest {

    @Test
    void smallBoundsLoseJavasExponentForm() {
        assertEquals("0.0001", Exposition.goFloat("1.0E-4"));
        assertEquals("0.0008", Exposition.goFloat("8.0E-4"));
        assertEquals("1e-05", Exposition.goFloat("1.0E-5"));
        assertEquals("2.5e-07", Exposition.goFloat("2.5E-7"));
        assertEquals("1e+21", Exposition.goFloat("1.0E21"));
    }

    @Test
    void onlyBucketBoundsAreRewritten() {
        String text = "x_bucket{To=\"a\",le=\"1.0E-4\"} 0\nx_bucket{To=\"a\",le=\"0.0016\"} 1\nx_bucket{To=\"a\",le=\"+Inf\"} 1\n"
                + "y 1.0E-4\n";
        assertEquals("x_bucket{To=\"a\",le=\"0.0001\"} 0\nx_bucket{To=\"a\",le=\"0.0016\"} 1\nx_bucket{To=\"a\",le=\"+Inf\"} 1\n"
                + "y 1.0E-4\n", Exposition.goBucketBounds(text));
    }
}
