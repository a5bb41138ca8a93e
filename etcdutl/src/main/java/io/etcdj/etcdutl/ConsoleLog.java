package io.etcdj.etcdutl;

import io.etcdj.cli.GoJsonString;
import java.io.PrintStream;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.StringJoiner;

/**
 * Progress lines on stderr in the shape of etcdutl's console logger: time, level, message, then
 * the fields as a JSON object. Never on stdout, which carries only command output.
 */
final class ConsoleLog {
    private static final DateTimeFormatter TS = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ssXXX")
            .withZone(ZoneOffset.UTC);
    private final PrintStream err;

    ConsoleLog(PrintStream err) {
        this.err = err;
    }

    /** {@code fields} alternate names and values; numbers print bare, lists as arrays, everything else quoted. */
    void info(String msg, Object... fields) {
        StringJoiner j = new StringJoiner(", ", "{", "}");
        for (int i = 0; i + 1 < fields.length; i += 2) {
            Object v = fields[i + 1];
            j.add(GoJsonString.quote(String.valueOf(fields[i])) + ": "
                    + value(v));
        }
        err.println(TS.format(Instant.now()) + "\tinfo\t" + msg + (fields.length == 0 ? "" : "\t" + j));
    }

    private static String value(Object v) {
        if (v instanceof Number) {
            return v.toString();
        }
        if (v instanceof List<?> list) {
            StringJoiner j = new StringJoiner(",", "[", "]");
            list.forEach(e -> j.add(GoJsonString.quote(String.valueOf(e))));
            return j.toString();
        }
        return GoJsonString.quote(String.valueOf(v));
    }
}
