package io.etcdj.cli;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Go's {@code %q} (strconv.Quote): for byte strings, as etcdctl's fields output prints keys and
 * values (bytes that are not UTF-8 as {@code \xNN}), and for text (error messages that quote a
 * flag's value). The one implementation every tool uses.
 */
public final class GoQuote {

    private GoQuote() {
    }

    /** {@code %q} of text: its UTF-8 bytes quoted. */
    public static String quote(String s) {
        return quote(s.getBytes(StandardCharsets.UTF_8));
    }

    public static String quote(byte[] bytes) {
        StringBuilder b = new StringBuilder("\"");
        int i = 0;
        while (i < bytes.length) {
            int len = utf8Length(bytes, i);
            if (len <= 0) {
                b.append(String.format("\\x%02x", bytes[i] & 0xff));
                i++;
                continue;
            }
            int cp = new String(bytes, i, len, StandardCharsets.UTF_8).codePointAt(0);
            i += len;
            appendRune(b, cp);
        }
        return b.append('"').toString();
    }

    private static void appendRune(StringBuilder b, int cp) {
        switch (cp) {
            case '"' -> b.append("\\\"");
            case '\\' -> b.append("\\\\");
            case 7 -> b.append("\\a");
            case '\b' -> b.append("\\b");
            case '\f' -> b.append("\\f");
            case '\n' -> b.append("\\n");
            case '\r' -> b.append("\\r");
            case '\t' -> b.append("\\t");
            case 11 -> b.append("\\v");
            default -> {
                if (cp < 0x20 || cp == 0x7f) {
                    b.append(String.format("\\x%02x", cp));
                } else if (isPrintable(cp)) {
                    b.appendCodePoint(cp);
                } else if (cp < 0x10000) {
                    b.append(String.format("\\u%04x", cp));
                } else {
                    b.append(String.format("\\U%08x", cp));
                }
            }
        }
    }

    private static boolean isPrintable(int cp) {
        if (cp < 0x80) {
            return cp >= 0x20 && cp < 0x7f;
        }
        int type = Character.getType(cp);
        return type != Character.CONTROL && type != Character.FORMAT && type != Character.SURROGATE
                && type != Character.PRIVATE_USE && type != Character.UNASSIGNED
                && type != Character.LINE_SEPARATOR && type != Character.PARAGRAPH_SEPARATOR
                && (type != Character.SPACE_SEPARATOR || cp == 0x20);
    }

    /** Length of a valid UTF-8 sequence at i, or 0 when the bytes there are not valid UTF-8. */
    private static int utf8Length(byte[] bytes, int i) {
        int b0 = bytes[i] & 0xff;
        int len = b0 < 0x80 ? 1 : b0 >= 0xf0 && b0 < 0xf5 ? 4 : b0 >= 0xe0 ? 3 : b0 >= 0xc2 && b0 < 0xe0 ? 2 : 0;
        if (len == 0 || i + len > bytes.length) {
            return 0;
        }
        CharsetDecoder d = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        try {
            d.decode(ByteBuffer.wrap(bytes, i, len));
            return len;
        } catch (CharacterCodingException e) {
            return 0;
        }
    }
}
