package io.etcdj.ctl.command;

/**
 * Reads a txn comparison's operands the way etcdctl does, with Go's {@code fmt.Sscanf(rest,
 * "%q) %s %q", &key, &op, &val)}: each verb skips leading spaces; {@code %q} takes a double-quoted
 * Go string (with escapes) or a back-quoted raw one; the space in the format needs at least one
 * space in the input; text after the last operand is ignored. {@link #count} is how many operands
 * were read before the first mismatch; those not read stay empty, as Go leaves them.
 */
final class GoCompareScanner {
    String key = "";
    String op = "";
    String value = "";
    int count;
    private final String in;
    private int pos;

    GoCompareScanner(String in) {
        this(in, true);
    }

    private GoCompareScanner(String in, boolean scan) {
        this.in = in;
        if (scan) {
            scan();
        }
    }

    /** Go's {@code fmt.Sscanf(word, "%q", &s)}: the quoted string {@code word} starts with, or null. */
    static String scanQuoted(String word) {
        return new GoCompareScanner(word, false).quoted();
    }

    private void scan() {
        String k = quoted();
        if (k == null) {
            return;
        }
        key = k;
        count = 1;
        if (pos >= in.length() || in.charAt(pos) != ')') {
            return;
        }
        pos++;
        if (!spaces()) {
            return;
        }
        String o = token();
        if (o == null) {
            return;
        }
        op = o;
        count = 2;
        if (!spaces()) {
            return;
        }
        String v = quoted();
        if (v == null) {
            return;
        }
        value = v;
        count = 3;
    }

    /** A run of at least one space. */
    private boolean spaces() {
        int start = pos;
        while (pos < in.length() && Character.isWhitespace(in.charAt(pos))) {
            pos++;
        }
        return pos > start;
    }

    private void skipSpaces() {
        while (pos < in.length() && Character.isWhitespace(in.charAt(pos))) {
            pos++;
        }
    }

    private String token() {
        skipSpaces();
        int start = pos;
        while (pos < in.length() && !Character.isWhitespace(in.charAt(pos))) {
            pos++;
        }
        return pos > start ? in.substring(start, pos) : null;
    }

    private String quoted() {
        skipSpaces();
        if (pos >= in.length()) {
            return null;
        }
        char q = in.charAt(pos);
        if (q == '`') {
            int end = in.indexOf('`', pos + 1);
            if (end < 0) {
                return null;
            }
            String s = in.substring(pos + 1, end);
            pos = end + 1;
            return s;
        }
        if (q != '"') {
            return null;
        }
        StringBuilder sb = new StringBuilder();
        int i = pos + 1;
        while (i < in.length()) {
            char c = in.charAt(i);
            if (c == '"') {
                pos = i + 1;
                return sb.toString();
            }
            if (c != '\\') {
                sb.append(c);
                i++;
                continue;
            }
            if (i + 1 >= in.length()) {
                return null;
            }
            char e = in.charAt(i + 1);
            i += 2;
            switch (e) {
                case 'a' -> sb.append('\u0007');
                case 'b' -> sb.append('\b');
                case 'f' -> sb.append('\f');
                case 'n' -> sb.append('\n');
                case 'r' -> sb.append('\r');
                case 't' -> sb.append('\t');
                case 'v' -> sb.append('\u000b');
                case '\\', '"', '\'' -> sb.append(e);
                case 'x', 'u', 'U' -> {
                    int len = e == 'x' ? 2 : e == 'u' ? 4 : 8;
                    if (i + len > in.length()) {
                        return null;
                    }
                    try {
                        sb.appendCodePoint(Integer.parseInt(in.substring(i, i + len), 16));
                    } catch (IllegalArgumentException ex) {
                        return null;
                    }
                    i += len;
                }
                default -> {
                    if (e < '0' || e > '7' || i + 2 > in.length()) {
                        return null;
                    }
                    try {
                        sb.append((char) Integer.parseInt(in.substring(i - 1, i + 2), 8));
                    } catch (NumberFormatException ex) {
                        return null;
                    }
                    i += 2;
                }
            }
        }
        return null;
    }
}
