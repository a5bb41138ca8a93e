package io.etcdj.ctl.command;

import java.io.PrintStream;
import java.math.BigDecimal;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;

/**
 * The zap info lines etcdctl 3.4 writes to stderr while saving a snapshot: its snapshot package logs
 * epoch-float timestamps, the Go client ISO-8601 ones.
 */
final class SnapshotLog {

    private static final DateTimeFormatter ISO = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSXX");

    private final PrintStream err;

    SnapshotLog(PrintStream err) {
        this.err = err;
    }

    void epoch(String caller, String msg, String extra) {
        double ts = System.currentTimeMillis() / 1000.0 + (System.nanoTime() % 1000) / 1e9;
        line("" + plain(ts), caller, msg, extra);
    }

    void iso(String caller, String msg) {
        line("\"" + ZonedDateTime.now().format(ISO) + "\"", caller, msg, "");
    }

    private void line(String ts, String caller, String msg, String extra) {
        err.println("{\"level\":\"info\",\"ts\":" + ts + ",\"caller\":\"" + caller + "\",\"msg\":\"" + msg + "\"" + extra
                + "}");
    }

    /** Seconds as Go's zap writes a float64 duration: shortest decimal form. */
    static String seconds(long nanos) {
        return plain(nanos / 1e9);
    }

    private static String plain(double d) {
        return new BigDecimal(Double.toString(d)).toPlainString();
    }
}
