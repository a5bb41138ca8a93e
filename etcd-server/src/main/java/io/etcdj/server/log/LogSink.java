package io.etcdj.server.log;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Where log lines go, from which level on, and in which encoding: one per member (a member's
 * classes take their {@link Log}s from its sink, {@link #logger}) and one for the process
 * ({@link Log#get}: the {@code etcd} command's own lines and those of code outside any member).
 * Immutable; {@link #withLevel} and {@link #withConsoleFormat} give changed copies. Lines are
 * written from many threads, each in one call.
 */
public final class LogSink {
    private final Consumer<String> out;
    private final int threshold;
    private final boolean console;

    private LogSink(Consumer<String> out, int threshold, boolean console) {
        this.out = Objects.requireNonNull(out, "out");
        this.threshold = threshold;
        this.console = console;
    }

    /** Standard error (as it is now), info and above, JSON lines: the {@code etcd} command's default. */
    public static LogSink stderr() {
        return printingTo(System.err);
    }

    /** Each line (without its line break) handed to {@code lines}, info and above, JSON. */
    public static LogSink to(Consumer<String> lines) {
        return new LogSink(lines, 1, false);
    }

    /**
     * etcd's --log-outputs: "default" and "stderr" mean stderr, "stdout" stdout, anything else a
     * file path (appended to, rotated as {@code rotation} says when not null). Only the first
     * target is used.
     */
    public static LogSink forOutputs(List<String> outputs, Rotation rotation) throws IOException {
        String target = outputs.isEmpty() ? "default" : outputs.get(0).trim();
        return switch (target) {
            case "default", "stderr" -> printingTo(System.err);
            case "stdout" -> printingTo(System.out);
            default -> rotation == null
                    ? printingTo(new PrintStream(new FileOutputStream(target, true), true))
                    : printingTo(new PrintStream(new RotatingFile(Path.of(target), rotation), true));
        };
    }

    private static LogSink printingTo(PrintStream stream) {
        return new LogSink(stream::println, 1, false);
    }

    /** This sink from etcd's --log-level on (debug, info, warn, error, panic, fatal). */
    public LogSink withLevel(String level) {
        int rank = rank(level);
        if (rank < 0) {
            throw new IllegalArgumentException("unknown log level " + level);
        }
        return new LogSink(out, rank, console);
    }

    /**
     * This sink in etcd's --log-format: {@code console} writes zap's console encoding (time, level,
     * caller and message separated by tabs, then the fields as one JSON object), {@code json} one
     * JSON object per line.
     */
    public LogSink withConsoleFormat(boolean consoleFormat) {
        return new LogSink(out, threshold, consoleFormat);
    }

    /** This sink's level and encoding, writing where {@code target} writes. */
    LogSink writingTo(LogSink target) {
        return new LogSink(target.out, threshold, console);
    }

    /** A logger writing here as {@code caller} (etcd's zap caller field: "etcdserver/server"). */
    public Log logger(String caller) {
        return new Log(this, caller);
    }

    public static boolean validLevel(String level) {
        return rank(level) >= 0;
    }

    boolean enabled(String level) {
        return rank(level) >= threshold;
    }

    boolean console() {
        return console;
    }

    void write(String line) {
        out.accept(line);
    }

    static int rank(String level) {
        return switch (level) {
            case "debug" -> 0;
            case "info" -> 1;
            case "warn" -> 2;
            case "error" -> 3;
            case "panic", "dpanic" -> 4;
            case "fatal" -> 5;
            default -> -1;
        };
    }
}
