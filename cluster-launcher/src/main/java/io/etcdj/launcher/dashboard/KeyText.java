package io.etcdj.launcher.dashboard;

import com.google.protobuf.ByteString;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Keys and values as the page shows them: UTF-8 text as is, anything else with each byte that is
 * not printable ASCII as {@code \xNN}, as Go's %q would show it.
 */
final class KeyText {
    private KeyText() {}

    static boolean isText(ByteString bytes) {
        try {
            StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes.toByteArray()));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }

    static String show(ByteString bytes) {
        if (isText(bytes)) {
            return bytes.toStringUtf8();
        }
        StringBuilder b = new StringBuilder();
        for (byte x : bytes.toByteArray()) {
            int c = x & 0xff;
            if (c >= 0x20 && c < 0x7f && c != '\\') {
                b.append((char) c);
            } else {
                b.append(String.format("\\x%02x", c));
            }
        }
        return b.toString();
    }

    /** etcd's GetPrefixRangeEnd: the prefix with its last byte below 0xff incremented; "\0" for everything. */
    static ByteString prefixEnd(ByteString prefix) {
        byte[] end = prefix.toByteArray();
        for (int i = end.length - 1; i >= 0; i--) {
            if ((end[i] & 0xff) < 0xff) {
                end[i]++;
                return ByteString.copyFrom(end, 0, i + 1);
            }
        }
        return ByteString.copyFrom(new byte[] {0});
    }
}
