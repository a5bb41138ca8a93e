package io.etcdj.etcdutl;

import io.etcdj.cli.OutputFormat;
import java.io.PrintStream;

/** What every command needs: where to print, and the global output format. */
record Context(PrintStream out, PrintStream err, OutputFormat format) {
    ResultPrinter printer() {
        return new ResultPrinter(format, out);
    }

    ConsoleLog log() {
        return new ConsoleLog(err);
    }
}
