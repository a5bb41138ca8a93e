package io.etcdj.ctl.check;

import io.etcdj.ctl.printer.Out;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The progress line etcdctl's check commands redraw five times a second on stdout when it is not a
 * terminal: {@code \r 12 / 60   20.00% 00m47s} (steps done, percent, estimated time left when at
 * least a second), and on finishing {@code \r 60 / 60  100.00% 1m0s} (time spent) and a newline.
 */
public final class ProgressCounter implements AutoCloseable {

    private final Out out;
    private final int total;
    private final AtomicInteger current = new AtomicInteger();
    private final long startNanos = System.nanoTime();
    private volatile long lastChangeNanos = startNanos;
    private boolean finished;
    /** The final line was drawn and ended with a newline (not merely stopped by {@link #close()}). */
    private boolean endedLine;
    private final ScheduledExecutorService redraw;

    private ProgressCounter(Out out, int total, boolean stepEverySecond) {
        this.out = out;
        this.total = total;
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

    /** check perf's counter: one step per second, finishing by itself after {@code seconds}. */
    public static ProgressCounter seconds(Out out, int seconds) {
        return new ProgressCounter(out, seconds, true);
    }

    /** check datascale's counter: one step per {@link #increment()}. */
    public static ProgressCounter steps(Out out, int total) {
        return new ProgressCounter(out, total, false);
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
        out.print("\r" + counters(current.get()) + " " + goSeconds(spent));
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
        StringBuilder b = new StringBuilder(counters(done));
        if (done > 0) {
            long perStep = (lastChangeNanos - startNanos) / done;
            long leftNanos = (total - done) * perStep - (now - lastChangeNanos);
            long leftSeconds = leftNanos / 1_000_000_000L;
            if (leftSeconds > 0) {
                b.append(String.format(Locale.ROOT, " %02dm%02ds", leftSeconds / 60, leftSeconds % 60));
            }
        }
        return b.toString();
    }

    private String counters(int done) {
        return " " + done + " / " + total + " " + String.format(Locale.ROOT, " %6.02f%%", done * 100.0 / total);
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
