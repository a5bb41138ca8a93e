package io.etcdj.launcher.dashboard;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Sums samples of Prometheus' text exposition format (what a member's /metrics serves), by metric
 * name and a test on the labels. Enough for counters and histogram sums; comments, types and
 * timestamps are ignored.
 */
final class MetricsText {
    private final String text;

    MetricsText(String text) {
        this.text = text;
    }

    /**
     * The sum of every sample named {@code name} whose labels pass {@code labels}, or NaN when
     * there is none (a metric the member does not export, such as latency without
     * {@code --metrics=extensive}).
     */
    double sum(String name, Predicate<Map<String, String>> labels) {
        double total = 0;
        boolean found = false;
        for (String line : text.split("\n")) {
            if (line.isEmpty() || line.charAt(0) == '#' || !line.startsWith(name)) {
                continue;
            }
            int after = name.length();
            if (after < line.length() && line.charAt(after) != '{' && line.charAt(after) != ' ') {
                continue; // a longer name with this one as prefix
            }
            Map<String, String> sampleLabels = Map.of();
            int valueStart = after;
            if (after < line.length() && line.charAt(after) == '{') {
                int close = line.indexOf('}', after);
                if (close < 0) {
                    continue;
                }
                sampleLabels = labels(line.substring(after + 1, close));
                valueStart = close + 1;
            }
            if (!labels.test(sampleLabels)) {
                continue;
            }
            String[] rest = line.substring(valueStart).trim().split("\\s+");
            try {
                total += Double.parseDouble(rest[0]);
                found = true;
            } catch (NumberFormatException e) {
                // a malformed sample counts as absent
            }
        }
        return found ? total : Double.NaN;
    }

    /** Parses {@code a="x",b="y"}; values may hold escaped quotes and commas. */
    static Map<String, String> labels(String body) {
        Map<String, String> out = new HashMap<>();
        int i = 0;
        while (i < body.length()) {
            int eq = body.indexOf('=', i);
            if (eq < 0 || eq + 1 >= body.length() || body.charAt(eq + 1) != '"') {
                break;
            }
            String key = body.substring(i, eq).trim();
            StringBuilder value = new StringBuilder();
            int j = eq + 2;
            while (j < body.length() && body.charAt(j) != '"') {
                char c = body.charAt(j);
                if (c == '\\' && j + 1 < body.length()) {
                    char n = body.charAt(++j);
                    value.append(n == 'n' ? '\n' : n);
                } else {
                    value.append(c);
                }
                j++;
            }
            out.put(key, value.toString());
            i = j + 1;
            while (i < body.length() && (body.charAt(i) == ',' || body.charAt(i) == ' ')) {
                i++;
            }
        }
        return out;
    }
}
