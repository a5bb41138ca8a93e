package io.etcdj.etcdutl;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * etcd's {@code -w table} layout: upper-case headers centred, cells right-aligned, one space of
 * padding, {@code +---+} borders.
 */
final class AsciiTable {
    private final List<String> headers;
    private final List<List<String>> rows = new ArrayList<>();

    AsciiTable(List<String> headers) {
        this.headers = headers.stream().map(h -> h.toUpperCase(Locale.ROOT)).toList();
    }

    AsciiTable row(List<String> cells) {
        rows.add(cells);
        return this;
    }

    String render() {
        int[] widths = new int[headers.size()];
        for (int i = 0; i < widths.length; i++) {
            widths[i] = headers.get(i).length();
            for (List<String> r : rows) {
                widths[i] = Math.max(widths[i], r.get(i).length());
            }
        }
        StringBuilder border = new StringBuilder("+");
        for (int w : widths) {
            border.append("-".repeat(w + 2)).append('+');
        }
        StringBuilder out = new StringBuilder();
        out.append(border).append('\n').append(line(headers, widths, true)).append('\n').append(border).append('\n');
        for (List<String> r : rows) {
            out.append(line(r, widths, false)).append('\n');
        }
        return out.append(border).append('\n').toString();
    }

    private static String line(List<String> cells, int[] widths, boolean centre) {
        StringBuilder b = new StringBuilder("|");
        for (int i = 0; i < widths.length; i++) {
            String c = cells.get(i);
            int gap = widths[i] - c.length();
            int left = centre ? gap / 2 : gap;
            b.append(' ').append(" ".repeat(left)).append(c).append(" ".repeat(gap - left)).append(" |");
        }
        return b.toString();
    }
}
