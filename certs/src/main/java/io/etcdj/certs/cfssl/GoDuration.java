package io.etcdj.certs.cfssl;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Go's {@code time.ParseDuration} syntax, which cfssl uses for {@code expiry} ("8760h",
 * "876000h", "1h30m"). {@link #parseLenient} also takes days and years ("365d", "10y") for the
 * command line, where "h" alone is awkward for certificate lifetimes.
 */
public final class GoDuration {
    private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d*)?|\\.\\d+)(ns|us|µs|ms|s|m|h|d|y)");
    private static final Map<String, Long> NANOS_PER_UNIT = Map.of(
            "ns", 1L, "us", 1_000L, "µs", 1_000L, "ms", 1_000_000L, "s", 1_000_000_000L,
            "m", 60_000_000_000L, "h", 3_600_000_000_000L,
            "d", 86_400_000_000_000L, "y", 365 * 86_400_000_000_000L);

    private GoDuration() {
    }

    /** Strict Go syntax: units ns, us, ms, s, m, h. */
    public static Duration parse(String text) {
        return parse(text, false);
    }

    /** Go syntax plus {@code d} (24h) and {@code y} (365d). */
    public static Duration parseLenient(String text) {
        return parse(text, true);
    }

    private static Duration parse(String text, boolean lenient) {
        String value = text == null ? "" : text.trim();
        if (value.equals("0")) {
            return Duration.ZERO;
        }
        Matcher matcher = PART.matcher(value);
        int position = 0;
        BigDecimal nanos = BigDecimal.ZERO;
        while (position < value.length()) {
            if (!matcher.find(position) || matcher.start() != position) {
                throw new IllegalArgumentException("time: invalid duration \"" + text + "\"");
            }
            String unit = matcher.group(2);
            if (!lenient && (unit.equals("d") || unit.equals("y"))) {
                throw new IllegalArgumentException("time: unknown unit \"" + unit + "\" in duration \"" + text + "\"");
            }
            nanos = nanos.add(new BigDecimal(matcher.group(1)).multiply(BigDecimal.valueOf(NANOS_PER_UNIT.get(unit))));
            position = matcher.end();
        }
        if (position == 0) {
            throw new IllegalArgumentException("time: invalid duration \"" + text + "\"");
        }
        try {
            return Duration.ofNanos(nanos.setScale(0, RoundingMode.DOWN).longValueExact());
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("time: invalid duration \"" + text + "\" (out of range)");
        }
    }

    /** Formats whole hours the way cfssl configs write them ("8760h"), else seconds. */
    public static String format(Duration duration) {
        if (duration.toSecondsPart() == 0 && duration.toMinutesPart() == 0 && duration.toNanosPart() == 0) {
            return duration.toHours() + "h";
        }
        return duration.toSeconds() + "s";
    }
}
