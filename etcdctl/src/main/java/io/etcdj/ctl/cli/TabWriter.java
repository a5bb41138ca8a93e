package io.etcdj.ctl.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * Go's text/tabwriter as cobra's help uses it (min width 0, tab width 8, padding 1, tabs as padding):
 * tab-separated cells are aligned by padding each column with tab characters.
 */
final class TabWriter {

    private final List<String[]> rows = new ArrayList<>();

    void row(String... cells) {
        rows.add(cells);
    }

    String render() {
        int columns = 0;
        for (String[] r : rows) {
            columns = Math.max(columns, r.length - 1);
        }
        int[] widths = new int[columns];
        for (String[] r : rows) {
            for (int c = 0; c < r.length - 1; c++) {
                widths[c] = Math.max(widths[c], r[c].codePointCount(0, r[c].length()));
            }
        }
        for (int c = 0; c < columns; c++) {
            widths[c] = (widths[c] + 1 + 7) / 8 * 8;
        }
        StringBuilder b = new StringBuilder();
        for (String[] r : rows) {
            for (int c = 0; c < r.length; c++) {
                b.append(r[c]);
                if (c < r.length - 1) {
                    int len = r[c].codePointCount(0, r[c].length());
                    b.append("\t".repeat(Math.max(1, (widths[c] - len + 7) / 8)));
                }
            }
            b.append('\n');
        }
        return b.toString();
    }
}
