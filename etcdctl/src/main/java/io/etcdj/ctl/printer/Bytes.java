package io.etcdj.ctl.printer;

import com.google.protobuf.ByteString;
import java.nio.charset.StandardCharsets;

/** Byte-string renderings shared by the printers. */
public final class Bytes {

    private Bytes() {
    }

    /** etcdctl's --hex form: every byte as {@code \xNN}. */
    public static String hex(ByteString b) {
        StringBuilder s = new StringBuilder(b.size() * 4);
        for (int i = 0; i < b.size(); i++) {
            s.append(String.format("\\x%02x", b.byteAt(i) & 0xff));
        }
        return s.toString();
    }

    /** Bytes as text; invalid UTF-8 is written through unchanged by {@link Out#raw}. */
    public static String text(ByteString b) {
        return b.toString(StandardCharsets.UTF_8);
    }
}
