package io.etcdj.certs.cfssl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class GoDurationTest {
    @Test
    void parsesGoSyntax() {
        assertEquals(Duration.ofHours(876000), GoDuration.parse("876000h"));
        assertEquals(Duration.ofMinutes(90), GoDuration.parse("1h30m"));
        assertEquals(Duration.ofMillis(1500), GoDuration.parse("1.5s"));
        assertEquals(Duration.ZERO, GoDuration.parse("0"));
        assertEquals(Duration.ofDays(365), GoDuration.parseLenient("1y"));
        assertEquals(Duration.ofDays(30), GoDuration.parseLenient("30d"));
        assertEquals("8760h", GoDuration.format(Duration.ofHours(8760)));
    }

    @Test
    void rejectsWhatGoRejects() {
        assertEquals("time: invalid duration \"8760\"",
                assertThrows(IllegalArgumentException.class, () -> GoDuration.parse("8760")).getMessage());
        assertThrows(IllegalArgumentException.class, () -> GoDuration.parse("1y"));
        assertThrows(IllegalArgumentException.class, () -> GoDuration.parse(""));
        assertThrows(IllegalArgumentException.class, () -> GoDuration.parse("h"));
        assertThrows(IllegalArgumentException.class, () -> GoDuration.parse("99999999999999h"));
    }
}
