package io.etcdj.server.proxy;

import java.time.Duration;

/** Go's time.Duration String() ("1m0s", "2.5s", "300ms"), for defaults in help text and log fields. */
public final class GoDuration {
    private GoDuration() {
    }

    public static String format(Duration d) {
        long nanos = d.toNanos();
        if (nanos == 0) {
            return "0s";
        }
        String sign = nanos < 0 ? "-" : "";
        long n = Math.abs(nanos);
        if (n < 1_000_000_000L) {
            // below a second Go picks the largest unit that keeps an integer part
            if (n < 1_000) {
                return sign + n + "ns";
            }
            if (n < 1_000_000) {
                return sign + fraction(n, 1_000) + "µs";
            }
            return sign + fraction(n, 1_000_000) + "ms";
        }
        long hours = n / 3_600_000_000_000L;
        long rest = n % 3_600_000_000_000L;
        long minutes = rest / 60_000_000_000L;
        long secNanos = rest % 60_000_000_000L;
        StringBuilder sb = new StringBuilder(sign);
        if (hours > 0) {
            sb.append(hours).append('h');
        }
        if (hours > 0 || minutes > 0) {
            sb.append(minutes).append('m');
        }
        sb.append(fraction(secNanos, 1_000_000_000L)).append('s');
        return sb.toString();
    }

    /** Seconds as zap encodes a duration field in etcd's logs: a number, integral when it can be. */
    public static Number seconds(Duration d) {
        if (d.getNano() == 0) {
            return d.getSeconds();
        }
        return d.toNanos() / 1e9;
    }

    private static String fraction(long value, long unit) {
        long whole = value / unit;
        long frac = value % unit;
        if (frac == 0) {
            return Long.toString(whole);
        }
        String digits = String.format("%0" + Long.toString(unit).length() + "d", frac).substring(1);
        return whole + "." + digits.replaceAll("0+$", "");
    }
}
