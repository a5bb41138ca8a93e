package io.etcdj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The expected values are Go's own: the parse, error and format tables of Go's time package tests
 * (time_test.go: parseDurationTests, parseDurationErrorTests, durationTests), and the texts the real
 * etcdctl 3.4 (Go 1.19) prints for bad durations. Go's rows with invalid UTF-8 bytes cannot be
 * written as Java strings and are left out.
 */
class GoDurationTest {

    private static final long MS = 1_000_000L;
    private static final long S = 1_000_000_000L;
    private static final long M = 60 * S;
    private static final long H = 60 * M;

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "0|0", "5s|5000000000", "30s|30000000000", "1478s|1478000000000",
        "-5s|-5000000000", "+5s|5000000000", "-0|0", "+0|0",
        "5.0s|5000000000", "5.6s|5600000000", "5.s|5000000000", ".5s|500000000", "1.0s|1000000000",
        "1.00s|1000000000", "1.004s|1004000000", "1.0040s|1004000000", "100.00100s|100001000000",
        "10ns|10", "11us|11000", "12\u00b5s|12000", "12\u03bcs|12000", "13ms|13000000", "14s|14000000000",
        "15m|900000000000", "16h|57600000000000",
        "52763797000ns|52763797000",
        "9007199254740993ns|9007199254740993",
        "9223372036854775807ns|9223372036854775807",
        "9223372036854775.807us|9223372036854775807",
        "9223372036s854ms775us807ns|9223372036854775807",
        "-9223372036854775808ns|-9223372036854775808",
        "-9223372036854775.808us|-9223372036854775808",
        "-9223372036s854ms775us808ns|-9223372036854775808",
        "-2562047h47m16.854775808s|-9223372036854775808",
    })
    void parsesWhatGoParses(String text, long nanos) {
        assertEquals(Duration.ofNanos(nanos), GoDuration.parse(text));
    }

    @Test
    void addsCompositeAndFractionalPartsAsGoDoes() {
        assertEquals(Duration.ofNanos(3 * H + 30 * M), GoDuration.parse("3h30m"));
        assertEquals(Duration.ofNanos(4 * M + 10 * S + 500 * MS), GoDuration.parse("10.5s4m"));
        assertEquals(Duration.ofNanos(-(2 * M + 3 * S + 400 * MS)), GoDuration.parse("-2m3.4s"));
        assertEquals(Duration.ofNanos(H + 2 * M + 3 * S + 4 * MS + 5_000 + 6), GoDuration.parse("1h2m3s4ms5us6ns"));
        assertEquals(Duration.ofNanos(39 * H + 9 * M + 14 * S + 425 * MS), GoDuration.parse("39h9m14.425s"));
        // more than 9 digits after the point (golang.org/issue/6617), a huge fraction (issue 15011)
        assertEquals(Duration.ofMinutes(20), GoDuration.parse("0.3333333333333333333h"));
        assertEquals(Duration.ofMinutes(6), GoDuration.parse("0.100000000000000000000h"));
        // the first overflow check of Go's leadingFraction
        assertEquals(Duration.ofNanos(49 * M + 48 * S + 372_539_827), GoDuration.parse("0.830103483285477580700h"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "''", "3", "-", "s", ".", "-.", ".s", "+.s", "1d",
        "9223372036854775810ns", "9223372036854775808ns", "-9223372036854775809ns", "9223372036854776us",
        "3000000h", "9223372036854775.808us", "9223372036854ms775us808ns",
    })
    void rejectsWhatGoRejectsNamingTheInput(String text) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> GoDuration.parse(text));
        // Go's test: the message quotes the input
        assertEquals(true, e.getMessage().endsWith(" \"" + text + "\""), e.getMessage());
    }

    @Test
    void errorTextsAreGos() {
        assertEquals("time: invalid duration \"x\"", message("x"));
        assertEquals("time: invalid duration \"\"", message(""));
        assertEquals("time: missing unit in duration \"10\"", message("10"));
        assertEquals("time: unknown unit \"d\" in duration \"3d\"", message("3d"));
        assertEquals("time: unknown unit \" minutes\" in duration \"10 minutes\"", message("10 minutes"));
        // as etcdctl 3.4 prints them: non-ASCII bytes escaped, quotes and backslashes escaped
        assertEquals("time: unknown unit \"\\xc2\\xb5x\" in duration \"1\\xc2\\xb5x\"", message("1\u00b5x"));
        assertEquals("time: invalid duration \"\\\"1s\\\"\"", message("\"1s\""));
        assertEquals("time: invalid duration \"\\xef\\xbf\\xbd hello\"", message("\ufffd hello"));
        assertEquals("time: unknown unit \"s\\x0a\" in duration \"1s\\x0a\"", message("1s\n"));
    }

    @Test
    void takesAToolsOwnUnitsBesideGos() {
        Map<String, Long> days = Map.of("d", 24 * H, "y", 365 * 24 * H);
        assertEquals(Duration.ofDays(365), GoDuration.parse("1y", days));
        assertEquals(Duration.ofDays(30).plusHours(12), GoDuration.parse("30d12h", days));
        assertEquals(Duration.ofHours(36), GoDuration.parse("1.5d", days));
        assertEquals("time: unknown unit \"w\" in duration \"2w\"",
                assertThrows(IllegalArgumentException.class, () -> GoDuration.parse("2w", days)).getMessage());
        assertEquals("time: invalid duration \"300000y\"",
                assertThrows(IllegalArgumentException.class, () -> GoDuration.parse("300000y", days)).getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "0s|0", "1ns|1", "1.1\u00b5s|1100", "2.2ms|2200000", "3.3s|3300000000", "4m5s|245000000000",
        "4m5.001s|245001000000", "5h6m7.001s|18367001000000", "8m0.000000001s|480000000001",
        "2562047h47m16.854775807s|9223372036854775807", "-2562047h47m16.854775808s|-9223372036854775808",
        "1m0s|60000000000", "2h0m0s|7200000000000", "-1.5s|-1500000000",
    })
    void formatsAsGoDoes(String text, long nanos) {
        assertEquals(text, GoDuration.format(nanos));
        assertEquals(text, GoDuration.format(Duration.ofNanos(nanos)));
    }

    @Test
    void readsBackWhatItWrites() {
        for (long nanos : new long[] {1, 999, 1_500, 123_456_789, 3_723_500_000_000L, Long.MAX_VALUE, Long.MIN_VALUE}) {
            assertEquals(Duration.ofNanos(nanos), GoDuration.parse(GoDuration.format(nanos)));
        }
    }

    @Test
    void secondsAsZapWritesThem() {
        assertEquals(5L, GoDuration.seconds(Duration.ofSeconds(5)));
        assertEquals(0.25, GoDuration.seconds(Duration.ofMillis(250)));
    }

    private static String message(String text) {
        return assertThrows(IllegalArgumentException.class, () -> GoDuration.parse(text)).getMessage();
    }
}
