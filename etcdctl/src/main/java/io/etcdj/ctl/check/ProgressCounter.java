package io.etcdj.ctl.check;

import io.etcdj.ctl.printer.Out;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The progress line etcdctl's check commands redraw five times a second on stdout, as its Go
 * progress-bar library (cheggaaa/pb v1, format {@code "Bom !"}) draws it:
 * {@code \r 12 / 60   20.00% 00m47s} (steps done, percent, estimated time left when at least a
 * second), and on finishing {@code \r 60 / 60  100.00% 1m0s} (time spent) and a newline. When the
 * process has a controlling terminal of known width (even with stdout in a file or pipe: the
 * library sizes the bar from {@code /dev/tty}), a bar fills the line to that width and the line is
 * padded with spaces to it: {@code \r 1642 / 10000 Booooooooooom      !  16.42% 00m01s}.
 */
public final class ProgressCounter implements AutoCloseable {

    private final Out out;
    private final int total;
    /** The controlling terminal's columns, 0: none (no bar, no padding). */
    private final int width;
    private final AtomicInteger current = new AtomicInteger();
    private final long startNanos = System.nanoTime();
    private volatile long lastChangeNanos = startNanos;
    private boolean finished;
    /** The final line was drawn and ended with a newline (not merely stopped by {@link #close()}). */
    private boolean endedLine;
    private final ScheduledExecutorService redraw;

    private ProgressCounter(Out out, int total, boolean stepEverySecond, int width) {
        this.out = out;
        this.total = total;
        this.width = width;
        this.redraw = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "progress");
            t.setDaemon(true);
            return t;
        });
        redraw.scheduleAtFixedRate(this::draw, 0, 200, TimeUnit.MILLISECONDS);
        if (stepEverySecond) {
            redraw.scheduleAtFixedRate(this::step, 1, 1, TimeUnit.SECONDS);
        }
    }

    /**
     * check perf's counter: one step per second, finishing by itself after {@code seconds}; drawn
     * {@code width} columns wide with a bar (0: no bar, see the class comment).
     */
    public static ProgressCounter seconds(Out out, int seconds, int width) {
        return new ProgressCounter(out, seconds, true, width);
    }

    /** check datascale's counter: one step per {@link #increment()}; {@code width} as for {@link #seconds}. */
    public static ProgressCounter steps(Out out, int total, int width) {
        return new ProgressCounter(out, total, false, width);
    }

    public void increment() {
        current.incrementAndGet();
        lastChangeNanos = System.nanoTime();
    }

    private synchronized void step() {
        if (finished) {
            return;
        }
        increment();
        if (current.get() >= total) {
            finish();
        }
    }

    /** Draws the final line with the time spent and ends it. */
    public synchronized void finish() {
        if (finished) {
            return;
        }
        finished = true;
        redraw.shutdown();
        long spent = (System.nanoTime() - startNanos) / 1_000_000_000L;
        out.print("\r" + layout(current.get(), total, " " + goSeconds(spent), width));
        out.println();
        endedLine = true;
    }

    /**
     * Whether the counter drew its final line and ended it, so the cursor is at the beginning of a
     * fresh line; a counter cut off by {@link #close()} leaves its text where the next output goes.
     */
    public synchronized boolean endedItsLine() {
        return endedLine;
    }

    /** Go's time.Duration text for whole seconds: 0s, 59s, 1m0s, 1h2m3s. */
    static String goSeconds(long s) {
        if (s < 60) {
            return s + "s";
        }
        if (s < 3600) {
            return s / 60 + "m" + s % 60 + "s";
        }
        return s / 3600 + "h" + s % 3600 / 60 + "m" + s % 60 + "s";
    }

    private synchronized void draw() {
        if (!finished) {
            out.print("\r" + line(current.get(), System.nanoTime()));
        }
    }

    /** One redraw's text for {@code done} steps at time {@code now}. */
    String line(int done, long now) {
        String timeLeft = "";
        if (done > 0) {
            long perStep = (lastChangeNanos - startNanos) / done;
            long leftNanos = (total - done) * perStep - (now - lastChangeNanos);
            long leftSeconds = leftNanos / 1_000_000_000L;
            if (leftSeconds > 0) {
                timeLeft = String.format(Locale.ROOT, " %02dm%02ds", leftSeconds / 60, leftSeconds % 60);
            }
        }
        return layout(done, total, timeLeft, width);
    }

    /**
     * The library's layout: counters, the bar ({@code B}, {@code o} for each done cell with {@code m}
     * ending them until the bar is full, spaces, {@code !}) in what {@code width} leaves, percent and
     * {@code timeLeft}, padded with spaces to {@code width}. Width 0: no bar and no padding.
     */
    static String layout(long done, long total, String timeLeft, int width) {
        String counters = " " + done + " / " + total + " ";
        String percent = String.format(Locale.ROOT, " %6.02f%%", done * 100.0 / total);
        int size = width - (counters.length() + 2 + percent.length() + timeLeft.length());
        StringBuilder line = new StringBuilder(counters);
        if (size > 0) {
            int filled = Math.min(size, (int) Math.ceil((double) done / total * size));
            int empty = Math.max(0, size - filled);
            line.append('B');
            if (empty == 0) {
                line.append("o".repeat(filled));
            } else if (filled > 0) {
                line.append("o".repeat(filled - 1)).append('m');
            }
            line.append(" ".repeat(empty)).append('!');
        }
        line.append(percent).append(timeLeft);
        if (line.length() < width) {
            line.append(" ".repeat(width - line.length()));
        }
        return line.toString();
    }

    /**
     * Stops redrawing. Like etcdctl, whose per-second counter runs on its own and is cut off when the
     * verdict is printed, a line that has not finished is not ended: the next output follows it.
     */
    @Override
    public void close() {
        redraw.shutdownNow();
        synchronized (this) {
            finished = true;
        }
        try {
            redraw.awaitTermination(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
