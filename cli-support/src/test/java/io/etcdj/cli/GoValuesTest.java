package io.etcdj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class GoValuesTest {

    @Test
    void parsesDurationsLikeGo() {
        assertEquals(Duration.ofSeconds(2), GoValues.parseDuration("2s"));
        assertEquals(Duration.ofMillis(1500), GoValues.parseDuration("1.5s"));
        assertEquals(Duration.ofMinutes(165), GoValues.parseDuration("2h45m"));
        assertEquals(Duration.ofNanos(300_000), GoValues.parseDuration("300us"));
        assertEquals(Duration.ZERO, GoValues.parseDuration("0"));
        assertEquals(Duration.ofSeconds(-1), GoValues.parseDuration("-1s"));
    }

    @Test
    void reportsBadDurationsWithGoText() {
        assertEquals("time: invalid duration \"xx\"",
                assertThrows(IllegalArgumentException.class, () -> GoValues.parseDuration("xx")).getMessage());
        assertEquals("time: missing unit in duration \"10\"",
                assertThrows(IllegalArgumentException.class, () -> GoValues.parseDuration("10")).getMessage());
        assertEquals("time: unknown unit \"d\" in duration \"3d\"",
                assertThrows(IllegalArgumentException.class, () -> GoValues.parseDuration("3d")).getMessage());
    }

    @Test
    void formatsDurationsLikeGo() {
        assertEquals("1.026946ms", GoValues.formatDuration(Duration.ofNanos(1_026_946)));
        assertEquals("874.889µs", GoValues.formatDuration(Duration.ofNanos(874_889)));
        assertEquals("5.000511159s", GoValues.formatDuration(Duration.ofNanos(5_000_511_159L)));
        assertEquals("1m30s", GoValues.formatDuration(Duration.ofSeconds(90)));
        assertEquals("2s", GoValues.formatDuration(Duration.ofSeconds(2)));
        assertEquals("0s", GoValues.formatDuration(Duration.ZERO));
        assertEquals("15ns", GoValues.formatDuration(Duration.ofNanos(15)));
    }

    @Test
    void parsesIntsAndBoolsWithStrconvErrors() {
        assertEquals(0x1234abcdL, GoValues.parseHexId("1234abcd"));
        assertEquals("strconv.ParseInt: parsing \"zz\": invalid syntax",
                assertThrows(IllegalArgumentException.class, () -> GoValues.parseHexId("zz")).getMessage());
        assertEquals("strconv.ParseInt: parsing \"99999999999999999999\": value out of range",
                assertThrows(IllegalArgumentException.class, () -> GoValues.parseInt("99999999999999999999", 10))
                        .getMessage());
        assertEquals(true, GoValues.parseBool("T"));
        assertEquals(false, GoValues.parseBool("0"));
        assertEquals("strconv.ParseBool: parsing \"yes\": invalid syntax",
                assertThrows(IllegalArgumentException.class, () -> GoValues.parseBool("yes")).getMessage());
    }

    @Test
    void parsesUnsignedIntsWithStrconvErrors() {
        assertEquals(5, GoValues.parseUint("5"));
        assertEquals("strconv.ParseUint: parsing \"-1\": invalid syntax",
                assertThrows(IllegalArgumentException.class, () -> GoValues.parseUint("-1")).getMessage());
        assertEquals("strconv.ParseUint: parsing \"99999999999999999999\": value out of range",
                assertThrows(IllegalArgumentException.class, () -> GoValues.parseUint("99999999999999999999")).getMessage());
        assertEquals("strconv.ParseInt: parsing \"++5\": invalid syntax",
                assertThrows(IllegalArgumentException.class, () -> GoValues.parseInt("++5", 10)).getMessage());
    }
}
