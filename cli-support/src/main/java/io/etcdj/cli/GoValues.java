package io.etcdj.cli;

import java.time.Duration;

/**
 * Parses flag values the way Go's strconv and time packages do, with their error texts, so bad input
 * is reported exactly as etcdctl and etcdutl report it.
 */
public final class GoValues {

    private GoValues() {
    }

    /** strconv.ParseBool. */
    public static boolean parseBool(String s) {
        return switch (s) {
            case "1", "t", "T", "TRUE", "true", "True" -> true;
            case "0", "f", "F", "FALSE", "false", "False" -> false;
            default -> throw new IllegalArgumentException("strconv.ParseBool: parsing \"" + s + "\": invalid syntax");
        };
    }

    /** strconv.ParseInt(s, base, 64). */
    public static long parseInt(String s, int base) {
        try {
            return Long.parseLong(s, base);
        } catch (NumberFormatException e) {
            String reason = s.matches("[+-]?[0-9a-fA-F]+") && isDigits(s, base) ? "value out of range" : "invalid syntax";
            throw new IllegalArgumentException("strconv.ParseInt: parsing \"" + s + "\": " + reason, e);
        }
    }

    /**
     * strconv.ParseInt(s, 0, 64), as pflag's IntVar parses: a {@code 0x}, {@code 0o}/{@code 0} or
     * {@code 0b} prefix picks the base; the error names the text as typed.
     */
    public static long parseIntAnyBase(String s) {
        String sign = s.startsWith("-") || s.startsWith("+") ? s.substring(0, 1) : "";
        String body = s.substring(sign.length()).replace("_", "");
        int base = 10;
        String digits = body;
        if (body.length() > 2 && body.charAt(0) == '0' && "xXoObB".indexOf(body.charAt(1)) >= 0) {
            base = switch (Character.toLowerCase(body.charAt(1))) {
                case 'x' -> 16;
                case 'o' -> 8;
                default -> 2;
            };
            digits = body.substring(2);
        } else if (body.length() > 1 && body.charAt(0) == '0') {
            base = 8;
            digits = body.substring(1);
        }
        try {
            return Long.parseLong(sign + digits, base);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("strconv.ParseInt: parsing \"" + s + "\": "
                    + (isDigits(digits, base) ? "value out of range" : "invalid syntax"), e);
        }
    }

    /**
     * An unsigned 64-bit decimal flag value (pflag's uint64) with strconv.ParseUint's error texts. It
     * accepts what {@link Long#parseUnsignedLong(String)} accepts, so also a leading {@code +}.
     */
    public static long parseUint(String s) {
        try {
            return Long.parseUnsignedLong(s);
        } catch (NumberFormatException e) {
            String reason = s.matches("[0-9]+") ? "value out of range" : "invalid syntax";
            throw new IllegalArgumentException("strconv.ParseUint: parsing \"" + s + "\": " + reason, e);
        }
    }

    private static boolean isDigits(String s, int base) {
        String body = s.startsWith("+") || s.startsWith("-") ? s.substring(1) : s;
        if (body.isEmpty()) {
            return false;
        }
        for (char c : body.toCharArray()) {
            if (Character.digit(c, base) < 0) {
                return false;
            }
        }
        return true;
    }

    /** A hex lease or member ID as etcdctl reads it: ParseInt(s, 16, 64). */
    public static long parseHexId(String s) {
        return parseInt(s, 16);
    }

    /** time.ParseDuration: "1.5s", "300ms", "2h45m", "-1s", "0". */
    public static Duration parseDuration(String s) {
        String orig = s;
        if (s.equals("0")) {
            return Duration.ZERO;
        }
        boolean neg = false;
        if (!s.isEmpty() && (s.charAt(0) == '-' || s.charAt(0) == '+')) {
            neg = s.charAt(0) == '-';
            s = s.substring(1);
        }
        if (s.equals("0")) {
            return Duration.ZERO;
        }
        if (s.isEmpty()) {
            throw invalidDuration(orig);
        }
        double totalNanos = 0;
        int i = 0;
        while (i < s.length()) {
            int start = i;
            while (i < s.length() && (Character.isDigit(s.charAt(i)) || s.charAt(i) == '.')) {
                i++;
            }
            String num = s.substring(start, i);
            if (num.isEmpty() || num.equals(".")) {
                throw invalidDuration(orig);
            }
            int unitStart = i;
            while (i < s.length() && !Character.isDigit(s.charAt(i)) && s.charAt(i) != '.') {
                i++;
            }
            String unit = s.substring(unitStart, i);
            if (unit.isEmpty()) {
                throw new IllegalArgumentException("time: missing unit in duration \"" + orig + "\"");
            }
            double scale = switch (unit) {
                case "ns" -> 1;
                case "us", "µs", "μs" -> 1e3;
                case "ms" -> 1e6;
                case "s" -> 1e9;
                case "m" -> 60e9;
                case "h" -> 3600e9;
                default -> throw new IllegalArgumentException(
                        "time: unknown unit \"" + unit + "\" in duration \"" + orig + "\"");
            };
            totalNanos += Double.parseDouble(num) * scale;
        }
        long nanos = Math.round(totalNanos);
        return Duration.ofNanos(neg ? -nanos : nanos);
    }

    private static IllegalArgumentException invalidDuration(String s) {
        return new IllegalArgumentException("time: invalid duration \"" + s + "\"");
    }

    /** time.Duration.String(): "1.026946ms", "874.889µs", "5.000511159s", "1m30s". */
    public static String formatDuration(Duration d) {
        long n = d.toNanos();
        if (n == 0) {
            return "0s";
        }
        String sign = n < 0 ? "-" : "";
        long u = Math.abs(n);
        if (u < 1_000) {
            return sign + u + "ns";
        }
        if (u < 1_000_000) {
            return sign + fraction(u, 1_000) + "µs";
        }
        if (u < 1_000_000_000) {
            return sign + fraction(u, 1_000_000) + "ms";
        }
        StringBuilder b = new StringBuilder(sign);
        long hours = u / 3_600_000_000_000L;
        long rest = u % 3_600_000_000_000L;
        long minutes = rest / 60_000_000_000L;
        rest = rest % 60_000_000_000L;
        if (hours > 0) {
            b.append(hours).append('h');
        }
        if (hours > 0 || minutes > 0) {
            b.append(minutes).append('m');
        }
        b.append(fraction(rest, 1_000_000_000)).append('s');
        return b.toString();
    }

    private static String fraction(long value, long unit) {
        long whole = value / unit;
        long frac = value % unit;
        if (frac == 0) {
            return Long.toString(whole);
        }
        int digits = Long.toString(unit).length() - 1;
        String f = String.format("%0" + digits + "d", frac).replaceAll("0+$", "");
        return whole + "." + f;
    }
}
