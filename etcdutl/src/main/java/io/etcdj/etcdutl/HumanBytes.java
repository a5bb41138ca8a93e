package io.etcdj.etcdutl;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Sizes as etcd prints them (go-humanize's {@code Bytes}): SI units of 1000, one decimal below
 * 10, none above, and Go's round-half-to-even on the exact binary value ("20480" is "20 kB").
 */
final class HumanBytes {
    private static final String[] UNITS = {"B", "kB", "MB", "GB", "TB", "PB", "EB"};

    private HumanBytes() {
    }

    static String format(long bytes) {
        if (bytes < 10) {
            return bytes + " B";
        }
        int e = (int) Math.floor(Math.log(bytes) / Math.log(1000));
        double val = Math.floor(bytes / Math.pow(1000, e) * 10 + 0.5) / 10;
        int decimals = val < 10 ? 1 : 0;
        return new BigDecimal(val).setScale(decimals, RoundingMode.HALF_EVEN).toPlainString() + " " + UNITS[e];
    }
}
