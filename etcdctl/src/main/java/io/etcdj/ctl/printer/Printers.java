package io.etcdj.ctl.printer;

import io.etcdj.cli.OutputFormat;
import java.io.PrintStream;

/** Chooses the printer for a {@code -w} value. */
public final class Printers {

    private Printers() {
    }

    public static Printer forFormat(String format, Out out, PrintStream err, boolean hex, boolean valueOnly) {
        return switch (OutputFormat.parse(format)) {
            case SIMPLE -> new SimplePrinter(out, err, hex, valueOnly);
            case JSON -> new JsonPrinter(out);
            case FIELDS -> new FieldsPrinter(out);
            case TABLE -> new TablePrinter(out);
            case PROTOBUF -> new ProtobufPrinter(out);
        };
    }
}
