package io.etcdj.cli;

/** A string as Go's encoding/json writes it, with its HTML-safe escapes of &lt;, &gt; and &amp;. */
public final class GoJsonString {

    private GoJsonString() {
    }

    /** {@code s} quoted and escaped, e.g. {@code "a\u003cb"}. */
    public static String quote(String s) {
        return append(new StringBuilder(s.length() + 2), s).toString();
    }

    /** Appends {@code s} quoted and escaped to {@code out}. */
    public static StringBuilder append(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '<', '>', '&', '\u2028', '\u2029' -> out.append(String.format("\\u%04x", (int) c));
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"');
    }
}
