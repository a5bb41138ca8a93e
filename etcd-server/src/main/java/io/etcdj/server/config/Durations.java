package io.etcdj.server.config;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Go's duration syntax ("1h30m", "500ms", "10m0s"), as etcd's flags take it and its logs print it. */
public final class Durations {
    private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d+)?)(ns|us|µs|ms|s|m|h)");

    private static final long MICRO = 1_000;
    private static final long MILLI = 1_000_000;
    private static final long SECOND = 1_000_000_000;

    private Durations() {
    }

    public static Duration parse(String s, String flag) throws ConfigException {
        Duration d = tryParse(s);
        if (d == null) {
            throw new ConfigException("invalid value \"" + s + "\" for flag -" + flag + ": parse error", 2, true);
        }
        return d;
    }

    /** The duration, or null if {@code s} is not Go duration syntax. */
    public static Duration tryParse(String s) {
        if (s == null || s.isEmpty()) {
            return null;
        }
        if (s.equals("0")) {
            return Duration.ZERO;
        }
        Matcher m = PART.matcher(s);
        int pos = 0;
        double nanos = 0;
        while (m.find() && m.start() == pos) {
            double n = Double.parseDouble(m.group(1));
            nanos += n * switch (m.group(2)) {
                case "ns" -> 1d;
                case "us", "µs" -> 1e3;
                case "ms" -> 1e6;
                case "s" -> 1e9;
                case "m" -> 60e9;
                default -> 3600e9;
            };
            pos = m.end();
        }
        return pos == s.length() ? Duration.ofNanos((long) nanos) : null;
    }

    /** The duration as Go's {@code time.Duration.String()} prints it ("1m0s", "1.5s", "300ms"). */
    public static String format(Duration d) {
        return format(d.toNanos());
    }

    /** {@link #format(Duration)} of a number of nanoseconds. */
    public static String format(long nanos) {
        if (nanos == 0) {
            return "0s";
        }
        if (nanos < 0) {
            return "-" + format(-nanos);
        }
        if (nanos < MICRO) {
            return nanos + "ns";
        }
        if (nanos < MILLI) {
            return decimal(nanos, 3) + "µs";
        }
        if (nanos < SECOND) {
            return decimal(nanos, 6) + "ms";
        }
        StringBuilder sb = new StringBuilder();
        long hours = nanos / (3600 * SECOND);
        long minutes = nanos / (60 * SECOND) % 60;
        if (hours > 0) {
            sb.append(hours).append('h');
        }
        if (hours > 0 || minutes > 0) {
            sb.append(minutes).append('m');
        }
        return sb.append(decimal(nanos % (60 * SECOND), 9)).append('s').toString();
    }

    private static String decimal(long value, int scale) {
        return java.math.BigDecimal.valueOf(value, scale).stripTrailingZeros().toPlainString();
    }
}
