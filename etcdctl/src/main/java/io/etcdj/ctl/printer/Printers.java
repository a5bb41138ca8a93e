package io.etcdj.ctl.printer;

import io.etcdj.ctl.cli.CtlException;
import io.etcdj.ctl.cli.ExitCodes;

import java.io.PrintStream;

/** Chooses the printer for a {@code -w} value. */
public final class Printers {

    private Printers() {
    }

    public static Printer forFormat(String format, Out out, PrintStream err, boolean hex, boolean valueOnly) {
        return switch (format) {
            case "simple" -> new SimplePrinter(out, err, hex, valueOnly);
            case "json" -> new JsonPrinter(out);
            case "fields" -> new FieldsPrinter(out);
            case "table" -> new TablePrinter(out);
            case "protobuf" -> new ProtobufPrinter(out);
            default -> throw new CtlException(ExitCodes.BAD_FEATURE, "unsupported output format");
        };
    }
}
