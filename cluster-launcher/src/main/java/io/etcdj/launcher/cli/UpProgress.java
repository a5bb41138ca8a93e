package io.etcdj.launcher.cli;

import io.etcdj.cli.progress.ProgressLine;
import io.etcdj.launcher.process.LogSink;
import io.etcdj.launcher.supervisor.StartupProgress;
import java.io.PrintStream;

/**
 * {@code up}'s progress line at a terminal (beyond etcd): the member processes started, then the
 * members serving clients, of all ({@code cluster-launcher up: serving clients: 1 of 3 members (33%),
 * 0.8 members/s, ETA 3s}), on stderr and erased once the cluster is up or start-up failed. In the
 * foreground the members' log lines pass through here: the line is erased before each and drawn
 * again below it, under one lock, so a log line never lands in the middle of it.
 */
final class UpProgress implements StartupProgress, LogSink, AutoCloseable {
    private final boolean shown;
    private final PrintStream err;
    private final LogSink logs;
    private ProgressLine line = ProgressLine.off();
    private boolean servingStarted;
    private boolean startingStarted;

    /** {@code logs} receives every log line; {@code shown}: see {@link io.etcdj.cli.progress.Terminals#progressShown}. */
    UpProgress(boolean shown, PrintStream err, LogSink logs) {
        this.shown = shown;
        this.err = err;
        this.logs = logs;
    }

    @Override
    public synchronized void started(int started, int total) {
        if (!startingStarted) {
            startingStarted = true;
            line = ProgressLine.when(shown, err, "cluster-launcher up: starting", ProgressLine.Unit.COUNT, "members");
        }
        line.update(started, total);
    }

    @Override
    public synchronized void serving(int serving, int total) {
        if (!servingStarted) {
            servingStarted = true;
            line.close();
            line = ProgressLine.when(shown, err, "cluster-launcher up: serving clients", ProgressLine.Unit.COUNT,
                    "members");
        }
        line.update(serving, total);
    }

    @Override
    public synchronized void line(String process, String text) {
        line.clear();
        logs.line(process, text);
        line.redraw();
    }

    /** Erases the line for good: what follows is printed as without it. */
    @Override
    public synchronized void close() {
        line.close();
        line = ProgressLine.off();
    }
}
