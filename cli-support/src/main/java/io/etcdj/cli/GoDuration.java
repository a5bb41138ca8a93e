package io.etcdj.cli;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

/**
 * Go's {@code time.Duration} as text, the one implementation every module uses: {@link #parse} is
 * {@code time.ParseDuration} (its grammar, its integer arithmetic and overflow checks, its error
 * texts as Go 1.19, which builds etcd 3.4.23, words them), {@link #format} is
 * {@code Duration.String()}. Flags of etcd, etcdctl and etcdutl, cfssl's {@code expiry} and the
 * server's configuration all read durations through here. It depends on nothing but the JDK, so the
 * server can use it without the rest of this module's picocli code.
 */
public final class GoDuration {

    private static final long NANOS_PER_MICRO = 1_000L;
    private static final long NANOS_PER_MILLI = 1_000_000L;
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final long NANOS_PER_MINUTE = 60 * NANOS_PER_SECOND;
    private static final long NANOS_PER_HOUR = 60 * NANOS_PER_MINUTE;

    /** Go's unitMap; both micro signs (U+00B5 and U+03BC) spell microseconds, as in Go. */
    private static final Map<String, Long> UNITS = Map.of("ns", 1L, "us", NANOS_PER_MICRO, "\u00b5s", NANOS_PER_MICRO,
            "\u03bcs", NANOS_PER_MICRO, "ms", NANOS_PER_MILLI, "s", NANOS_PER_SECOND, "m", NANOS_PER_MINUTE,
            "h", NANOS_PER_HOUR);

    /** 1<<63 as Go's uint64 arithmetic uses it: the magnitude of the most negative duration. */
    private static final long TWO_TO_63 = Long.MIN_VALUE;

    private GoDuration() {
    }

    /**
     * {@code time.ParseDuration}: a signed sequence of decimal numbers, each with an optional
     * fraction and a unit ("300ms", "-1.5h", "2h45m"); "0" alone needs no unit.
     *
     * @throws IllegalArgumentException with Go's text, e.g. {@code time: invalid duration "x"}
     */
    public static Duration parse(String s) {
        return parse(s, Map.of());
    }

    /**
     * {@link #parse} with units of a tool's own beside Go's (etcd-certs' {@code --validity} takes
     * {@code d} and {@code y}); {@code extraUnits} maps a unit to its length in nanoseconds.
     */
    public static Duration parse(String s, Map<String, Long> extraUnits) {
        String orig = s;
        long total = 0; // unsigned, as Go's uint64
        boolean negative = false;
        if (!s.isEmpty() && (s.charAt(0) == '-' || s.charAt(0) == '+')) {
            negative = s.charAt(0) == '-';
            s = s.substring(1);
        }
        if (s.equals("0")) {
            return Duration.ZERO;
        }
        if (s.isEmpty()) {
            throw invalid(orig);
        }
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (!(c == '.' || isDigit(c))) {
                throw invalid(orig);
            }
            // the integer part, [0-9]*: an overflow here is an invalid duration
            int start = i;
            long whole = 0;
            for (; i < s.length() && isDigit(s.charAt(i)); i++) {
                if (Long.compareUnsigned(whole, Long.divideUnsigned(TWO_TO_63, 10)) > 0) {
                    throw invalid(orig);
                }
                whole = whole * 10 + (s.charAt(i) - '0');
                if (Long.compareUnsigned(whole, TWO_TO_63) > 0) {
                    throw invalid(orig);
                }
            }
            boolean digitsBefore = i > start;
            // the fraction, (\.[0-9]*)?: digits beyond 63 bits of precision are dropped, not an error
            long fraction = 0;
            double scale = 1;
            boolean digitsAfter = false;
            if (i < s.length() && s.charAt(i) == '.') {
                i++;
                int fractionStart = i;
                boolean overflow = false;
                for (; i < s.length() && isDigit(s.charAt(i)); i++) {
                    if (overflow) {
                        continue;
                    }
                    if (Long.compareUnsigned(fraction, Long.MAX_VALUE / 10) > 0) {
                        overflow = true;
                        continue;
                    }
                    long next = fraction * 10 + (s.charAt(i) - '0');
                    if (Long.compareUnsigned(next, TWO_TO_63) > 0) {
                        overflow = true;
                        continue;
                    }
                    fraction = next;
                    scale *= 10;
                }
                digitsAfter = i > fractionStart;
            }
            if (!digitsBefore && !digitsAfter) {
                throw invalid(orig); // ".s" or "-.s"
            }
            int unitStart = i;
            while (i < s.length() && s.charAt(i) != '.' && !isDigit(s.charAt(i))) {
                i++;
            }
            if (i == unitStart) {
                throw new IllegalArgumentException("time: missing unit in duration " + quote(orig));
            }
            String unitText = s.substring(unitStart, i);
            Long unit = UNITS.containsKey(unitText) ? UNITS.get(unitText) : extraUnits.get(unitText);
            if (unit == null) {
                throw new IllegalArgumentException(
                        "time: unknown unit " + quote(unitText) + " in duration " + quote(orig));
            }
            if (Long.compareUnsigned(whole, Long.divideUnsigned(TWO_TO_63, unit)) > 0) {
                throw invalid(orig);
            }
            long value = whole * unit;
            if (fraction > 0) {
                // as Go: float64 keeps a fraction of an hour nanosecond-exact
                value += (long) (fraction * (unit / scale));
                if (Long.compareUnsigned(value, TWO_TO_63) > 0) {
                    throw invalid(orig);
                }
            }
            total += value;
            if (Long.compareUnsigned(total, TWO_TO_63) > 0) {
                throw invalid(orig);
            }
        }
        if (negative) {
            return Duration.ofNanos(-total); // -(1<<63) wraps to itself: Go's minimum duration
        }
        if (total < 0) {
            throw invalid(orig); // exactly 1<<63 fits only a negative duration
        }
        return Duration.ofNanos(total);
    }

    /**
     * {@code time.Duration.String()}: "1h2m3.5s", "1m0s", "1.5s", "300ms", "874.889µs", "15ns", "0s".
     * A Go duration is an int64 of nanoseconds: a longer {@code d} does not fit one.
     */
    public static String format(Duration d) {
        return format(d.toNanos());
    }

    /** {@link #format(Duration)} of a number of nanoseconds. */
    public static String format(long nanos) {
        if (nanos == 0) {
            return "0s";
        }
        String sign = nanos < 0 ? "-" : "";
        // the magnitude, unsigned: Long.MIN_VALUE stays 1<<63 as in Go
        long u = nanos < 0 ? -nanos : nanos;
        if (Long.compareUnsigned(u, NANOS_PER_MICRO) < 0) {
            return sign + u + "ns";
        }
        if (Long.compareUnsigned(u, NANOS_PER_MILLI) < 0) {
            return sign + fraction(u, NANOS_PER_MICRO) + "\u00b5s";
        }
        if (Long.compareUnsigned(u, NANOS_PER_SECOND) < 0) {
            return sign + fraction(u, NANOS_PER_MILLI) + "ms";
        }
        StringBuilder b = new StringBuilder(sign);
        long hours = Long.divideUnsigned(u, NANOS_PER_HOUR);
        long rest = Long.remainderUnsigned(u, NANOS_PER_HOUR);
        long minutes = rest / NANOS_PER_MINUTE;
        if (hours > 0) {
            b.append(hours).append('h');
        }
        if (hours > 0 || minutes > 0) {
            b.append(minutes).append('m');
        }
        return b.append(fraction(rest % NANOS_PER_MINUTE, NANOS_PER_SECOND)).append('s').toString();
    }

    /**
     * A duration as zap's default encoder writes it into etcd's JSON logs: seconds as a number,
     * integral when it can be ({@code 5}, {@code 0.25}).
     */
    public static Number seconds(Duration d) {
        if (d.getNano() == 0) {
            return d.getSeconds();
        }
        return d.toNanos() / 1e9;
    }

    /** {@code value / unit} with the fraction's trailing zeros dropped ({@code 1.5}, {@code 874.889}). */
    private static String fraction(long value, long unit) {
        long whole = Long.divideUnsigned(value, unit);
        long rest = Long.remainderUnsigned(value, unit);
        if (rest == 0) {
            return Long.toUnsignedString(whole);
        }
        int digits = Long.toString(unit).length() - 1;
        String f = String.format("%0" + digits + "d", rest).replaceAll("0+$", "");
        return Long.toUnsignedString(whole) + "." + f;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static IllegalArgumentException invalid(String orig) {
        return new IllegalArgumentException("time: invalid duration " + quote(orig));
    }

    /**
     * The time package's quote: the text in double quotes, {@code "} and {@code \} escaped, and each
     * byte of a control or non-ASCII character as {@code \xNN} (so "1µx" reads {@code "1\xc2\xb5x"}).
     */
    static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < s.length(); ) {
            int c = s.codePointAt(i);
            int width = Character.charCount(c);
            if (c >= 0x80 || c < ' ') {
                for (byte x : s.substring(i, i + width).getBytes(StandardCharsets.UTF_8)) {
                    b.append(String.format("\\x%02x", x & 0xff));
                }
            } else {
                if (c == '"' || c == '\\') {
                    b.append('\\');
                }
                b.append((char) c);
            }
            i += width;
        }
        return b.append('"').toString();
    }
}
