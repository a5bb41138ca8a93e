package io.etcdj.server.config;

/**
 * Checks JSON text as Go's encoding/json scanner does and returns its error text for the first
 * fault ("unexpected end of JSON input", "invalid character 'x' looking for beginning of
 * value"...), or null when the text is valid. etcd wraps these texts in its own messages (for
 * example --log-rotation-config-json's "improperly formatted log rotation config: ...").
 */
final class GoJson {
    private final String s;
    private int i;

    private GoJson(String s) {
        this.s = s;
    }

    /** Go's syntax error text for {@code json}, or null if it is valid. */
    static String syntaxError(String json) {
        GoJson p = new GoJson(json);
        try {
            p.value();
            p.space();
            if (p.i < p.s.length()) {
                throw p.invalid("after top-level value");
            }
            return null;
        } catch (Fault f) {
            return f.getMessage();
        }
    }

    private static final class Fault extends Exception {
        private static final long serialVersionUID = 1L;

        Fault(String message) {
            super(message, null, false, false);
        }
    }

    private void space() {
        while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t' || s.charAt(i) == '\n' || s.charAt(i) == '\r')) {
            i++;
        }
    }

    private char peek() throws Fault {
        if (i >= s.length()) {
            throw new Fault("unexpected end of JSON input");
        }
        return s.charAt(i);
    }

    private Fault invalid(String context) {
        return new Fault("invalid character " + quote(s.charAt(i)) + " " + context);
    }

    /** Go's quoteChar: '\'' for a quote, '"' for a double quote, otherwise strconv.Quote in single quotes. */
    static String quote(char c) {
        if (c == '\'') {
            return "'\\''";
        }
        if (c == '"') {
            return "'\"'";
        }
        String q = switch (c) {
            case '\n' -> "\\n";
            case '\r' -> "\\r";
            case '\t' -> "\\t";
            case '\b' -> "\\b";
            case '\f' -> "\\f";
            case '\\' -> "\\\\";
            default -> c < 0x20 || c == 0x7f ? String.format("\\x%02x", (int) c) : String.valueOf(c);
        };
        return "'" + q + "'";
    }

    private void value() throws Fault {
        space();
        char c = peek();
        switch (c) {
            case '{' -> object();
            case '[' -> array();
            case '"' -> string();
            case 't' -> literal("true");
            case 'f' -> literal("false");
            case 'n' -> literal("null");
            default -> {
                if (c == '-' || (c >= '0' && c <= '9')) {
                    number();
                } else {
                    throw invalid("looking for beginning of value");
                }
            }
        }
    }

    private void object() throws Fault {
        i++;
        space();
        if (peek() == '}') {
            i++;
            return;
        }
        while (true) {
            space();
            if (peek() != '"') {
                throw invalid("looking for beginning of object key string");
            }
            string();
            space();
            if (peek() != ':') {
                throw invalid("after object key");
            }
            i++;
            value();
            space();
            char c = peek();
            if (c == '}') {
                i++;
                return;
            }
            if (c != ',') {
                throw invalid("after object key:value pair");
            }
            i++;
        }
    }

    private void array() throws Fault {
        i++;
        space();
        if (peek() == ']') {
            i++;
            return;
        }
        while (true) {
            value();
            space();
            char c = peek();
            if (c == ']') {
                i++;
                return;
            }
            if (c != ',') {
                throw invalid("after array element");
            }
            i++;
        }
    }

    private void string() throws Fault {
        i++;
        while (true) {
            char c = peek();
            if (c == '"') {
                i++;
                return;
            }
            if (c < 0x20) {
                throw invalid("in string literal");
            }
            if (c == '\\') {
                i++;
                char e = peek();
                if (e == 'u') {
                    i++;
                    for (int k = 0; k < 4; k++) {
                        char h = peek();
                        if (Character.digit(h, 16) < 0) {
                            throw invalid("in \\u hexadecimal character escape");
                        }
                        i++;
                    }
                    continue;
                }
                if ("\"\\/bfnrt".indexOf(e) < 0) {
                    throw invalid("in string escape code");
                }
            }
            i++;
        }
    }

    private void literal(String word) throws Fault {
        for (int k = 0; k < word.length(); k++) {
            char c = peek();
            if (c != word.charAt(k)) {
                throw invalid("in literal " + word + " (expecting " + quote(word.charAt(k)) + ")");
            }
            i++;
        }
    }

    private void number() throws Fault {
        if (peek() == '-') {
            i++;
            char c = peek();
            if (c < '0' || c > '9') {
                throw invalid("in numeric literal");
            }
        }
        if (peek() == '0') {
            i++;
        } else {
            digits();
        }
        if (i < s.length() && s.charAt(i) == '.') {
            i++;
            char c = peek();
            if (c < '0' || c > '9') {
                throw invalid("after decimal point in numeric literal");
            }
            digits();
        }
        if (i < s.length() && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
            i++;
            if (peek() == '+' || peek() == '-') {
                i++;
            }
            char c = peek();
            if (c < '0' || c > '9') {
                throw invalid("in exponent of numeric literal");
            }
            digits();
        }
    }

    private void digits() {
        while (i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
            i++;
        }
    }
}
