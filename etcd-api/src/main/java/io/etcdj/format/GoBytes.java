package io.etcdj.format;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Sizes as etcd's tools and logs print them (go-humanize's {@code Bytes}): SI units of 1000, one
 * decimal below 10, none above, and Go's round-half-to-even ("20480" is "20 kB", "1500000" is
 * "1.5 MB").
 */
public final class GoBytes {
    private static final String[] UNITS = {"B", "kB", "MB", "GB", "TB", "PB", "EB"};

    private GoBytes() {
    }

    public static String format(long bytes) {
        if (bytes < 10) {
            return bytes + " B";
        }
        int e = (int) Math.floor(Math.log(bytes) / Math.log(1000));
        double val = Math.floor(bytes / Math.pow(1000, e) * 10 + 0.5) / 10;
        // Go's %.Nf rounds half to even (20.5 prints as "20"), unlike Java's Formatter
        return new BigDecimal(val).setScale(val < 10 ? 1 : 0, RoundingMode.HALF_EVEN).toPlainString() + " " + UNITS[e];
    }
}
