package io.etcdj.server.config;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Go's duration syntax ("1h30m", "500ms", "10m0s"), as etcd's flags take it. */
public final class Durations {
    private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d+)?)(ns|us|µs|ms|s|m|h)");

    private Durations() {
    }

    public static Duration parse(String s, String flag) throws ConfigException {
        Duration d = tryParse(s);
        if (d == null) {
            throw new ConfigException("invalid value \"" + s + "\" for flag -" + flag + ": parse error", 2, true);
        }
        return d;
    }

    /** The duration, or null if {@code s} is not Go duration syntax. */
    public static Duration tryParse(String s) {
        if (s == null || s.isEmpty()) {
            return null;
        }
        if (s.equals("0")) {
            return Duration.ZERO;
        }
        Matcher m = PART.matcher(s);
        int pos = 0;
        double nanos = 0;
        while (m.find() && m.start() == pos) {
            double n = Double.parseDouble(m.group(1));
            nanos += n * switch (m.group(2)) {
                case "ns" -> 1d;
                case "us", "µs" -> 1e3;
                case "ms" -> 1e6;
                case "s" -> 1e9;
                case "m" -> 60e9;
                default -> 3600e9;
            };
            pos = m.end();
        }
        return pos == s.length() ? Duration.ofNanos((long) nanos) : null;
    }
}
