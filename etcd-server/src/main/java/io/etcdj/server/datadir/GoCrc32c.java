package io.etcdj.server.datadir;

/**
 * Go's {@code crc32.Update} with the Castagnoli table: a CRC32C that can be continued from any
 * earlier value. etcd's WAL seeds each segment's chain with the previous segment's last value,
 * which {@link java.util.zip.CRC32C} (no seed) cannot do.
 */
final class GoCrc32c {
    private static final int[] TABLE = new int[256];

    static {
        for (int i = 0; i < 256; i++) {
            int c = i;
            for (int k = 0; k < 8; k++) {
                c = (c & 1) != 0 ? (c >>> 1) ^ 0x82F63B78 : c >>> 1;
            }
            TABLE[i] = c;
        }
    }

    private GoCrc32c() {
    }

    /** The checksum of (whatever gave {@code crc}) followed by {@code data}. */
    static int update(int crc, byte[] data) {
        int c = ~crc;
        for (byte b : data) {
            c = TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
        }
        return ~c;
    }
}
