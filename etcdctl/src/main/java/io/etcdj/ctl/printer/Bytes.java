package io.etcdj.ctl.printer;

import com.google.protobuf.ByteString;

import java.nio.charset.StandardCharsets;

/** Byte-string renderings shared by the printers. */
public final class Bytes {

    private Bytes() {
    }

    /** etcdctl's --hex form: every byte as {@code \xNN}. */
    public static String hex(ByteString b) {
        StringBuilder s = new StringBuilder(b.size() * 4);
        for (int i = 0; i < b.size(); i++) {
            s.append(String.format("\\x%02x", b.byteAt(i) & 0xff));
        }
        return s.toString();
    }

    /** Bytes as text; invalid UTF-8 is written through unchanged by {@link Out#raw}. */
    public static String text(ByteString b) {
        return b.toString(StandardCharsets.UTF_8);
    }

    /** Go's humanize.Bytes: SI units with one decimal below 10 ("20 kB", "1.5 MB"). */
    public static String humanize(long size) {
        if (size < 10) {
            return size + " B";
        }
        String[] units = {"B", "kB", "MB", "GB", "TB", "PB", "EB"};
        int e = (int) Math.floor(Math.log(size) / Math.log(1000));
        double val = Math.floor(size / Math.pow(1000, e) * 10 + 0.5) / 10;
        // Go's %.Nf rounds half to even (20.5 prints as "20"), unlike Java's Formatter.
        int scale = val < 10 ? 1 : 0;
        return new java.math.BigDecimal(val).setScale(scale, java.math.RoundingMode.HALF_EVEN).toPlainString()
                + " " + units[e];
    }
}
