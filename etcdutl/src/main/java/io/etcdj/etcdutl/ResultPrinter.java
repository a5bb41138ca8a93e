package io.etcdj.etcdutl;

import io.etcdj.cli.AsciiTable;
import io.etcdj.cli.CliException;
import io.etcdj.cli.GoJsonString;
import io.etcdj.cli.OutputFormat;
import io.etcdj.format.GoBytes;
import io.etcdj.server.datadir.KvHash;
import io.etcdj.server.datadir.SnapshotStatus;
import java.io.PrintStream;
import java.util.List;

/**
 * Prints {@code snapshot status} and {@code hashkv} results in each output format as etcdutl 3.6
 * does. Protobuf has no message for these results, so it is refused as etcd refuses it.
 */
final class ResultPrinter {
    private final OutputFormat format;
    private final PrintStream out;

    ResultPrinter(OutputFormat format, PrintStream out) {
        this.format = format;
        this.out = out;
    }

    void print(SnapshotStatus s) {
        String[] headers = {"HASH", "REVISION", "TOTAL KEYS", "TOTAL SIZE", "VERSION"};
        List<String> row = List.of(Long.toHexString(s.hash()), Long.toString(s.revision()),
                Long.toString(s.totalKeys()), GoBytes.format(s.totalSize()), s.version());
        switch (format) {
            case SIMPLE -> out.println(String.join(", ", row));
            case TABLE -> out.print(AsciiTable.render(headers, List.of(row)));
            case JSON -> out.println("{\"hash\":" + s.hash() + ",\"revision\":" + s.revision() + ",\"totalKey\":"
                    + s.totalKeys() + ",\"totalSize\":" + s.totalSize() + ",\"version\":" + GoJsonString.quote(s.version()) + "}");
            case FIELDS -> {
                out.println("\"Hash\" : " + s.hash());
                out.println("\"Revision\" : " + s.revision());
                out.println("\"Keys\" : " + s.totalKeys());
                out.println("\"Size\" : " + s.totalSize());
                out.println("\"Version\" : " + s.version());
            }
            case PROTOBUF -> throw unsupported();
        }
    }

    void print(KvHash h) {
        String[] headers = {"HASH", "HASH REVISION", "COMPACT REVISION"};
        List<String> row = List.of(Long.toString(h.hash()), Long.toString(h.hashRevision()),
                Long.toString(h.compactRevision()));
        switch (format) {
            case SIMPLE -> out.println(String.join(", ", row));
            case TABLE -> out.print(AsciiTable.render(headers, List.of(row)));
            case JSON -> out.println("{\"hash\":" + h.hash() + ",\"hashRevision\":" + h.hashRevision()
                    + ",\"compactRevision\":" + h.compactRevision() + "}");
            case FIELDS -> {
                out.println("\"Hash\" : " + h.hash());
                out.println("\"Hash revision\" : " + h.hashRevision());
                out.println("\"Compact revision\" : " + h.compactRevision());
            }
            case PROTOBUF -> throw unsupported();
        }
    }

    private static CliException unsupported() {
        return CliException.unsupportedFormat("protobuf");
    }
}
