package io.etcdj.ctl.printer;

import com.google.protobuf.ByteString;

/** Key-range arithmetic shared by commands and printers. */
public final class KeyRanges {

    /** etcd's "from key" range end: a single zero byte. */
    public static final ByteString FROM_KEY = ByteString.copyFrom(new byte[] {0});

    private KeyRanges() {
    }

    /**
     * The range end that selects every key with the given prefix: the prefix with its last byte below
     * 0xff incremented and what follows dropped; all-0xff prefixes (and the empty prefix) give
     * {@link #FROM_KEY}.
     */
    public static ByteString prefixEnd(ByteString prefix) {
        byte[] end = prefix.toByteArray();
        for (int i = end.length - 1; i >= 0; i--) {
            if ((end[i] & 0xff) < 0xff) {
                end[i]++;
                return ByteString.copyFrom(end, 0, i + 1);
            }
        }
        return FROM_KEY;
    }
}
