package io.etcdj.cli.progress;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * One line of progress for long work at a terminal: {@code snapshot save: 12.5 MiB of 40.0 MiB
 * (31%), 6.2 MiB/s, ETA 4s}, rewritten in place with a carriage return at most five times a second
 * and erased when the work ends, so the output a script reads is the same with or without it.
 * Made by {@link #at} only when the caller is interactive; {@link #off()} draws nothing. Safe to
 * use from several threads (a work thread reporting, a log thread clearing and redrawing it around
 * its own lines, a ticker during one long call): every drawing is one print under the line's lock.
 */
public final class ProgressLine implements AutoCloseable {

    /** What is counted: bytes print as sizes, anything else as a count and its noun. */
    public enum Unit { BYTES, COUNT }

    private static final long REDRAW_NANOS = 200_000_000L;
    private static final String ERASE = "\r\033[K";

    private final PrintStream err;
    private final LongSupplier clock;
    private final String label;
    private final Unit unit;
    private final String noun;
    private final long startNanos;
    private long lastDrawNanos = Long.MIN_VALUE;
    private boolean drawn;
    /** The last state reported, for {@link #redraw()}: done and total, or waiting (see {@link #waiting()}). */
    private long lastDone;
    private long lastTotal;
    private boolean reported;
    private boolean lastWasWaiting;

    private ProgressLine(PrintStream err, LongSupplier clock, String label, Unit unit, String noun) {
        this.err = err;
        this.clock = clock;
        this.label = label;
        this.unit = unit;
        this.noun = noun;
        this.startNanos = err == null ? 0 : clock.getAsLong();
    }

    /** A line that draws nothing: output is not a terminal, or the format is for programs (-w json). */
    public static ProgressLine off() {
        return new ProgressLine(null, System::nanoTime, "", Unit.COUNT, "");
    }

    /** A line drawn on {@code err} (a terminal), counting {@code unit}s named {@code noun} ("keys"). */
    public static ProgressLine at(PrintStream err, LongSupplier nanoClock, String label, Unit unit, String noun) {
        return new ProgressLine(err, nanoClock, label, unit, noun);
    }

    /** {@link #at} when {@code show}, else {@link #off()}. */
    public static ProgressLine when(boolean show, PrintStream err, String label, Unit unit, String noun) {
        return show ? at(err, System::nanoTime, label, unit, noun) : off();
    }

    public boolean isOn() {
        return err != null;
    }

    /** Reports {@code done} of {@code total} (total 0 or less: not known); redraws when due. */
    public synchronized void update(long done, long total) {
        if (err == null) {
            return;
        }
        lastDone = done;
        lastTotal = total;
        lastWasWaiting = false;
        reported = true;
        drawIfDue();
    }

    /**
     * Reports that one call is still under way, when nothing can be counted: the line shows the
     * label and the time spent so far ({@code check perf: deleting the keys (3s)}).
     */
    public synchronized void waiting() {
        if (err == null) {
            return;
        }
        lastWasWaiting = true;
        reported = true;
        drawIfDue();
    }

    /**
     * Draws the last state reported again at once, after {@link #clear()} made room for other output
     * (the launcher's log lines); nothing when nothing was reported yet or the line is off.
     */
    public synchronized void redraw() {
        if (err != null && reported) {
            drawn = false;
            drawIfDue();
        }
    }

    private void drawIfDue() {
        long now = clock.getAsLong();
        if (drawn && now - lastDrawNanos < REDRAW_NANOS) {
            return;
        }
        lastDrawNanos = now;
        drawn = true;
        long elapsed = now - startNanos;
        err.print(ERASE + (lastWasWaiting ? waitingText(elapsed) : text(lastDone, lastTotal, elapsed)));
        err.flush();
    }

    /** The line's text while one call is under way, {@code elapsedNanos} after the line began. */
    String waitingText(long elapsedNanos) {
        return label + " (" + duration(elapsedNanos / 1_000_000_000L) + ")";
    }

    /**
     * Runs one long call that reports nothing (a single request), showing {@link #waiting()} while it
     * runs, redrawn by a daemon thread five times a second; the line appears only once the call has
     * taken {@code after} (a quick call leaves no flicker) and is erased when it returns.
     */
    public <T> T during(Duration after, Supplier<T> call) {
        if (err == null) {
            return call.get();
        }
        ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "progress-line");
            t.setDaemon(true);
            return t;
        });
        ticker.scheduleAtFixedRate(this::waiting, after.toNanos(), REDRAW_NANOS, TimeUnit.NANOSECONDS);
        try {
            return call.get();
        } finally {
            ticker.shutdownNow();
            try {
                ticker.awaitTermination(1, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            close();
        }
    }

    /** The line's text for {@code done} of {@code total} after {@code elapsedNanos}. */
    String text(long done, long total, long elapsedNanos) {
        StringBuilder b = new StringBuilder(label).append(": ");
        if (total <= 0) {
            b.append(amount(done));
        } else {
            b.append(unit == Unit.BYTES ? size(done) : Long.toString(done)).append(" of ").append(amount(total))
                    .append(String.format(Locale.ROOT, " (%d%%)", Math.min(100, done * 100 / total)));
        }
        double seconds = elapsedNanos / 1e9;
        if (seconds >= 0.5 && done > 0) {
            double rate = done / seconds;
            b.append(", ").append(unit == Unit.BYTES ? size(rate) + "/s"
                    : String.format(Locale.ROOT, "%.1f %s/s", rate, noun));
            if (total > done) {
                b.append(", ETA ").append(duration((long) Math.ceil((total - done) / rate)));
            }
        }
        return b.toString();
    }

    private String amount(long n) {
        return unit == Unit.BYTES ? size(n) : n + (noun.isEmpty() ? "" : " " + noun);
    }

    static String size(double bytes) {
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
        int i = 0;
        while (bytes >= 1024 && i < units.length - 1) {
            bytes /= 1024;
            i++;
        }
        return i == 0 ? String.format(Locale.ROOT, "%.0f B", bytes) : String.format(Locale.ROOT, "%.1f %s", bytes, units[i]);
    }

    static String duration(long seconds) {
        if (seconds < 60) {
            return seconds + "s";
        }
        if (seconds < 3600) {
            return seconds / 60 + "m" + seconds % 60 + "s";
        }
        return seconds / 3600 + "h" + seconds % 3600 / 60 + "m";
    }

    /**
     * Erases the line before other output is written to the terminal; the next {@link #update}
     * draws it again at once, below that output.
     */
    public synchronized void clear() {
        close();
    }

    /** Erases the line, so what follows starts at the beginning of a clean line. */
    @Override
    public synchronized void close() {
        if (err != null && drawn) {
            err.print(ERASE);
            err.flush();
            drawn = false;
        }
    }
}
