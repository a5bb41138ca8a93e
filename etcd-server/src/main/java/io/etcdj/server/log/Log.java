package io.etcdj.server.log;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Structured logs, one JSON object per line, with the keys etcd's default (zap) logger uses:
 * level, ts, logger, caller, msg, then the event's fields. Tools and test harnesses look for
 * etcd's lifecycle messages ("ready to serve client requests") in these lines.
 *
 * <p>A member's classes log through loggers of the member's {@link LogSink}
 * ({@code sink.logger("mvcc")}), so members sharing a JVM write where each was told to. Code
 * outside any member (the command's flag warnings and signals, configuration and discovery, the
 * proxies, java.util.logging of gRPC and Netty) uses {@link #get}: the process's sink, set by the
 * command's flags.
 */
public final class Log {
    private static final DateTimeFormatter TS = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSX")
            .withZone(ZoneOffset.UTC);
    /** The process's sink (see the class comment); replaced, never changed, by the setters below. */
    private static volatile LogSink process = LogSink.stderr();

    /** null: the process's sink as it is when a line is written (static loggers outlive its setting). */
    private final LogSink sink;
    private final String caller;

    Log(LogSink sink, String caller) {
        this.sink = sink;
        this.caller = caller;
    }

    /** A logger on the process's sink (code outside any member). */
    public static Log get(String caller) {
        return new Log(null, caller);
    }

    /** The process's sink as the command's flags set it: what a member of the {@code etcd} command writes to. */
    public static LogSink processSink() {
        return process;
    }

    /** Where the process's lines go, from etcd's --log-outputs ({@link LogSink#forOutputs}). */
    public static void setOutput(List<String> outputs) throws IOException {
        setOutput(outputs, null);
    }

    /**
     * As {@link #setOutput(java.util.List)}; a file target is rotated as {@code rotation} says
     * (--enable-log-rotation) when not null.
     */
    public static void setOutput(List<String> outputs, Rotation rotation) throws IOException {
        process = process.writingTo(LogSink.forOutputs(outputs, rotation));
    }

    /** etcd's --log-format for the process's sink ({@link LogSink#withConsoleFormat}). */
    public static void setConsole(boolean consoleFormat) {
        process = process.withConsoleFormat(consoleFormat);
    }

    /** Sets the process's level from etcd's --log-level (debug, info, warn, error, panic, fatal). */
    public static void setLevel(String level) {
        process = process.withLevel(level);
    }

    public static boolean validLevel(String level) {
        return LogSink.validLevel(level);
    }

    /** Sends java.util.logging output (gRPC, Netty) through the same format, warnings and above. */
    public static void captureJavaLogging() {
        LogManager.getLogManager().reset();
        Logger root = Logger.getLogger("");
        root.setLevel(Level.WARNING);
        root.addHandler(new Handler() {
            @Override
            public void publish(LogRecord r) {
                String level = r.getLevel().intValue() >= Level.SEVERE.intValue() ? "error" : "warn";
                Throwable thrown = r.getThrown();
                if (thrown == null) {
                    get(r.getLoggerName()).write(level, r.getMessage(), null);
                } else if (level.equals("error")) {
                    get(r.getLoggerName()).write(level, r.getMessage(), thrown);
                } else {
                    // Netty and gRPC warn with an exception for routine events (a client that went
                    // away): the exception's text, without a stack trace per disconnect
                    get(r.getLoggerName()).write(level, r.getMessage(), null, "error", String.valueOf(thrown));
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        });
    }

    public void debug(String msg, Object... fields) {
        log("debug", msg, fields);
    }

    public void info(String msg, Object... fields) {
        log("info", msg, fields);
    }

    public void warn(String msg, Object... fields) {
        log("warn", msg, fields);
    }

    /**
     * A warning caused by an exception nobody expected: the line carries its stack trace. An
     * expected failure (a peer down, a bad request) is logged with its message alone.
     */
    public void warn(String msg, Throwable cause, Object... fields) {
        log("warn", msg, cause, fields);
    }

    public void error(String msg, Object... fields) {
        log("error", msg, fields);
    }

    /**
     * An error line with the stack trace of {@code cause} in a {@code stacktrace} field, where
     * zap puts its own; an {@code error} field with the exception is added unless given.
     */
    public void error(String msg, Throwable cause, Object... fields) {
        log("error", msg, cause, fields);
    }

    /** etcd's fatal level: the line before the process exits with status 1 (the caller exits). */
    public void fatal(String msg, Object... fields) {
        log("fatal", msg, fields);
    }

    /** A fatal line with the stack trace of {@code cause}, as {@link #error(String, Throwable, Object...)}. */
    public void fatal(String msg, Throwable cause, Object... fields) {
        log("fatal", msg, cause, fields);
    }

    private void log(String level, String msg, Object... fields) {
        log(level, msg, null, fields);
    }

    private void log(String level, String msg, Throwable cause, Object... fields) {
        if (!sink().enabled(level)) {
            return;
        }
        write(level, msg, cause, fields);
    }

    private LogSink sink() {
        return sink != null ? sink : process;
    }

    private void write(String level, String msg, Throwable cause, Object... fields) {
        LogSink to = sink();
        if (cause != null) {
            fields = withCause(fields, cause);
        }
        if (to.console()) {
            to.write(console(level, msg, cause, fields));
            return;
        }
        StringBuilder sb = new StringBuilder(160);
        sb.append("{\"level\":\"").append(level).append("\",\"ts\":\"").append(TS.format(Instant.now()))
                .append("\",\"caller\":");
        quote(sb, caller);
        sb.append(",\"msg\":");
        quote(sb, msg);
        for (int i = 0; i + 1 < fields.length; i += 2) {
            sb.append(',');
            quote(sb, String.valueOf(fields[i]));
            sb.append(':');
            value(sb, fields[i + 1]);
        }
        if (cause != null) {
            sb.append(",\"stacktrace\":");
            quote(sb, stackTrace(cause));
        }
        sb.append('}');
        to.write(sb.toString());
    }

    /** The fields with an {@code error} field for {@code cause} in front, unless the caller gave one. */
    private static Object[] withCause(Object[] fields, Throwable cause) {
        for (int i = 0; i + 1 < fields.length; i += 2) {
            if ("error".equals(fields[i])) {
                return fields;
            }
        }
        Object[] all = new Object[fields.length + 2];
        all[0] = "error";
        all[1] = String.valueOf(cause);
        System.arraycopy(fields, 0, all, 2, fields.length);
        return all;
    }

    /** The exception's trace with its causes, as the JVM prints it, without the final line break. */
    static String stackTrace(Throwable t) {
        StringWriter w = new StringWriter();
        t.printStackTrace(new PrintWriter(w));
        String s = w.toString();
        return s.endsWith(System.lineSeparator()) ? s.substring(0, s.length() - System.lineSeparator().length()) : s;
    }

    private String console(String level, String msg, Throwable cause, Object... fields) {
        StringBuilder sb = new StringBuilder(160);
        sb.append(TS.format(Instant.now())).append('\t').append(level).append('\t').append(caller).append('\t').append(msg);
        if (fields.length >= 2) {
            sb.append("\t{");
            for (int i = 0; i + 1 < fields.length; i += 2) {
                if (i > 0) {
                    sb.append(", ");
                }
                quote(sb, String.valueOf(fields[i]));
                sb.append(": ");
                value(sb, fields[i + 1], ", ");
            }
            sb.append('}');
        }
        if (cause != null) {
            // zap's console encoder puts the stack trace on the lines after the entry
            sb.append('\n').append(stackTrace(cause));
        }
        return sb.toString();
    }

    private static void value(StringBuilder sb, Object v) {
        value(sb, v, ",");
    }

    private static void value(StringBuilder sb, Object v, String separator) {
        if (v instanceof Number || v instanceof Boolean) {
            sb.append(v);
        } else if (v instanceof Iterable<?> it) {
            sb.append('[');
            boolean first = true;
            for (Object o : it) {
                if (!first) {
                    sb.append(separator);
                }
                first = false;
                value(sb, o, separator);
            }
            sb.append(']');
        } else {
            quote(sb, String.valueOf(v));
        }
    }

    /** Appends {@code s} as a JSON string. */
    private static void quote(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }
}
