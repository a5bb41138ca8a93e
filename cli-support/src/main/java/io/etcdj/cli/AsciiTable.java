package io.etcdj.cli;

import java.util.List;

/**
 * etcd's {@code -w table} layout (etcdctl's and etcdutl's): a ruled header row with centred titles
 * (an odd gap puts the extra space right of the title), right-aligned cells, one space of padding,
 * {@code +---+} rules; widths count code points. Titles are printed as given (etcd's are upper case).
 */
public final class AsciiTable {

    private AsciiTable() {
    }

    /** The table of {@code header} over {@code rows} (each as wide as the header), ending in a newline. */
    public static String render(String[] header, List<List<String>> rows) {
        int[] widths = new int[header.length];
        for (int i = 0; i < header.length; i++) {
            widths[i] = width(header[i]);
        }
        for (List<String> row : rows) {
            for (int i = 0; i < header.length; i++) {
                widths[i] = Math.max(widths[i], width(row.get(i)));
            }
        }
        StringBuilder rule = new StringBuilder("+");
        for (int w : widths) {
            rule.append("-".repeat(w + 2)).append('+');
        }
        rule.append('\n');
        StringBuilder b = new StringBuilder(rule);
        b.append('|');
        for (int i = 0; i < header.length; i++) {
            int gap = widths[i] - width(header[i]);
            int left = gap / 2;
            b.append(' ').append(" ".repeat(left)).append(header[i]).append(" ".repeat(gap - left)).append(" |");
        }
        b.append('\n').append(rule);
        for (List<String> row : rows) {
            b.append('|');
            for (int i = 0; i < header.length; i++) {
                String cell = row.get(i);
                b.append(' ').append(" ".repeat(widths[i] - width(cell))).append(cell).append(" |");
            }
            b.append('\n');
        }
        b.append(rule);
        return b.toString();
    }

    private static int width(String s) {
        return s.codePointCount(0, s.length());
    }
}
