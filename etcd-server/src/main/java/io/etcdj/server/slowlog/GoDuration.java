package io.etcdj.server.slowlog;

import java.math.BigDecimal;

/** A duration as Go's {@code time.Duration.String()} prints it, which is how etcd's logs show durations. */
public final class GoDuration {
    private static final long MICRO = 1_000;
    private static final long MILLI = 1_000_000;
    private static final long SECOND = 1_000_000_000;

    private GoDuration() {
    }

    public static String of(long nanos) {
        if (nanos == 0) {
            return "0s";
        }
        if (nanos < 0) {
            return "-" + of(-nanos);
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
        return BigDecimal.valueOf(value, scale).stripTrailingZeros().toPlainString();
    }
}
