package io.etcdj.etcdutl;

import io.etcdj.cli.progress.ProgressLine;
import io.etcdj.server.datadir.RestoreProgress;
import java.io.PrintStream;

/**
 * The progress line of {@code snapshot restore} (beyond etcd): the snapshot's bytes read, of the
 * file's size, with rate and ETA ({@code snapshot restore: 120.0 MiB of 400.0 MiB (30%), 80.0 MiB/s,
 * ETA 4s}); for a real etcd's file the records converted into the new backend follow, whose number
 * is known only at the end ({@code snapshot restore: writing: 52000 records, 41000.0 records/s}).
 * One line at a time, erased when the restore ends, so the log lines around it stay etcd's.
 */
final class RestoreProgressLine implements RestoreProgress, AutoCloseable {
    private final boolean shown;
    private final PrintStream err;
    private ProgressLine bytes = ProgressLine.off();
    private ProgressLine records = ProgressLine.off();
    private boolean readingStarted;
    private boolean writingStarted;

    RestoreProgressLine(boolean shown, PrintStream err) {
        this.shown = shown;
        this.err = err;
    }

    @Override
    public void bytesRead(long done, long total) {
        if (!readingStarted) {
            readingStarted = true;
            bytes = ProgressLine.when(shown, err, "snapshot restore", ProgressLine.Unit.BYTES, "");
        }
        bytes.update(done, total);
    }

    @Override
    public void recordsWritten(long written) {
        if (!writingStarted) {
            writingStarted = true;
            bytes.close();
            records = ProgressLine.when(shown, err, "snapshot restore: writing", ProgressLine.Unit.COUNT, "records");
        }
        records.update(written, 0);
    }

    @Override
    public void close() {
        bytes.close();
        records.close();
    }
}
