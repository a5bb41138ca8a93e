package io.etcdj.cli;

/**
 * Parses flag values the way Go's strconv package does, with its error texts, so bad input is
 * reported exactly as etcdctl and etcdutl report it. Durations: {@link GoDuration}.
 */
public final class GoValues {

    private GoValues() {
    }

    /** strconv.ParseBool. */
    public static boolean parseBool(String s) {
        return switch (s) {
            case "1", "t", "T", "TRUE", "true", "True" -> true;
            case "0", "f", "F", "FALSE", "false", "False" -> false;
            default -> throw new IllegalArgumentException("strconv.ParseBool: parsing " + quote(s) + ": invalid syntax");
        };
    }

    /** strconv.ParseInt(s, base, 64). */
    public static long parseInt(String s, int base) {
        try {
            return Long.parseLong(s, base);
        } catch (NumberFormatException e) {
            String reason = s.matches("[+-]?[0-9a-fA-F]+") && isDigits(s, base) ? "value out of range" : "invalid syntax";
            throw new IllegalArgumentException("strconv.ParseInt: parsing " + quote(s) + ": " + reason, e);
        }
    }

    /**
     * The digits of an unsigned number as strconv reads it with base 0: a {@code 0x}, {@code 0o}
     * or {@code 0} and {@code 0b} prefix picks the base, underscores are dropped.
     */
    public record Digits(int base, String digits) {
        public static Digits of(String unsigned) {
            String body = unsigned.replace("_", "");
            if (body.length() > 2 && body.charAt(0) == '0' && "xXoObB".indexOf(body.charAt(1)) >= 0) {
                int base = switch (Character.toLowerCase(body.charAt(1))) {
                    case 'x' -> 16;
                    case 'o' -> 8;
                    default -> 2;
                };
                return new Digits(base, body.substring(2));
            }
            if (body.length() > 1 && body.charAt(0) == '0') {
                return new Digits(8, body.substring(1));
            }
            return new Digits(10, body);
        }
    }

    /**
     * strconv.ParseInt(s, 0, 64), as pflag's IntVar parses: a {@code 0x}, {@code 0o}/{@code 0} or
     * {@code 0b} prefix picks the base; the error names the text as typed.
     */
    public static long parseIntAnyBase(String s) {
        String sign = s.startsWith("-") || s.startsWith("+") ? s.substring(0, 1) : "";
        Digits split = Digits.of(s.substring(sign.length()));
        int base = split.base();
        String digits = split.digits();
        try {
            return Long.parseLong(sign + digits, base);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("strconv.ParseInt: parsing " + quote(s) + ": "
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
            throw new IllegalArgumentException("strconv.ParseUint: parsing " + quote(s) + ": " + reason, e);
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

    /** Go's {@code %q} of a string (strconv.Quote): see {@link GoQuote}. */
    public static String quote(String s) {
        return GoQuote.quote(s);
    }
}
