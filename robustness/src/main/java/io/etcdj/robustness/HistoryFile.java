package io.etcdj.robustness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads back the history.txt a run keeps (one {@link Op#toString()} a line), to check it again. */
final class HistoryFile {
    private static final Pattern LINE = Pattern.compile(
            "#(\\d+) c(-?\\d+) (read|write|cas) (\\S+) (.*) (OK|FAILED|UNKNOWN) \\[(\\d+), (\\d+|inf)] rev=(\\d+) via (\\S+)");

    private HistoryFile() {
    }

    static List<Op> read(Path file) throws IOException {
        List<Op> ops = new ArrayList<>();
        for (String line : Files.readAllLines(file)) {
            if (line.startsWith("# ") || line.isBlank()) {
                continue;
            }
            Matcher m = LINE.matcher(line);
            if (!m.matches()) {
                throw new IOException("unreadable history line: " + line);
            }
            Op.Kind kind = Op.Kind.valueOf(m.group(3).toUpperCase());
            String body = m.group(5);
            String value;
            String expected = null;
            switch (kind) {
                case READ -> value = nullable(body.substring("-> ".length()));
                case WRITE -> value = nullable(body.substring("= ".length()));
                default -> {
                    String[] parts = body.split(" -> ");
                    expected = nullable(parts[0]);
                    value = nullable(parts[1]);
                }
            }
            ops.add(new Op(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), m.group(4), kind, value, expected,
                    Long.parseLong(m.group(7)), m.group(8).equals("inf") ? Long.MAX_VALUE : Long.parseLong(m.group(8)),
                    Op.Outcome.valueOf(m.group(6)), Long.parseLong(m.group(9)), m.group(10)));
        }
        return ops;
    }

    private static String nullable(String s) {
        return s.equals("null") ? null : s;
    }
}
