package io.etcdj.etcdutl;

import io.etcdj.cli.OutputFormat;
import io.etcdj.cli.progress.Terminals;
import java.io.PrintStream;

/** What every command needs: where to print, and the global output format. */
record Context(PrintStream out, PrintStream err, OutputFormat format) {
    ResultPrinter printer() {
        return new ResultPrinter(format, out);
    }

    /** Whether a long command may draw a progress line (beyond etcd): see {@link Terminals#progressShown}. */
    boolean progressShown() {
        return Terminals.progressShown(out, err, format == OutputFormat.JSON);
    }

    ConsoleLog log() {
        return new ConsoleLog(err);
    }
}
