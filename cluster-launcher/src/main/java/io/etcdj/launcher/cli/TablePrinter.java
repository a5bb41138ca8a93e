package io.etcdj.launcher.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/** Prints rows as a boxed table in etcdctl's style: centred headers, numbers right-aligned. */
final class TablePrinter {
    private TablePrinter() {}

    static void print(PrintStream out, List<String> headers, List<List<String>> rows) {
        int[] widths = new int[headers.size()];
        for (int i = 0; i < widths.length; i++) {
            widths[i] = headers.get(i).length();
            for (List<String> row : rows) {
                widths[i] = Math.max(widths[i], row.get(i).length());
            }
        }
        String rule = rule(widths);
        out.println(rule);
        List<String> head = new ArrayList<>();
        for (int i = 0; i < widths.length; i++) {
            head.add(centre(headers.get(i), widths[i]));
        }
        out.println("| " + String.join(" | ", head) + " |");
        out.println(rule);
        for (List<String> row : rows) {
            List<String> cells = new ArrayList<>();
            for (int i = 0; i < widths.length; i++) {
                String c = row.get(i);
                cells.add(isNumeric(c) ? " ".repeat(widths[i] - c.length()) + c : c + " ".repeat(widths[i] - c.length()));
            }
            out.println("| " + String.join(" | ", cells) + " |");
        }
        out.println(rule);
    }

    private static String rule(int[] widths) {
        StringBuilder b = new StringBuilder("+");
        for (int w : widths) {
            b.append("-".repeat(w + 2)).append('+');
        }
        return b.toString();
    }

    private static String centre(String s, int width) {
        int left = (width - s.length()) / 2;
        return " ".repeat(left) + s + " ".repeat(width - s.length() - left);
    }

    private static boolean isNumeric(String s) {
        return s.matches("[0-9]+(\\.[0-9]+)?( [kMGTP]?B)?");
    }
}
