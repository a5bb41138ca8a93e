package io.etcdj.server.bbolt;

/** The constants of bbolt's format (see package-info). */
final class Layout {
    static final int MAGIC = 0xED0CDAED;
    static final int VERSION = 2;
    static final int PAGE_HEADER = 16;
    static final int ELEMENT = 16;
    static final int BUCKET_HEADER = 16;
    static final int META_SIZE = 64;
    /** Bytes of the meta covered by its checksum: everything before the checksum field. */
    static final int META_CHECKSUMMED = 56;

    static final int BRANCH_PAGE = 0x01;
    static final int LEAF_PAGE = 0x02;
    static final int META_PAGE = 0x04;
    static final int FREELIST_PAGE = 0x10;

    static final int BUCKET_LEAF_FLAG = 0x01;
    static final long NO_FREELIST = -1L;
    /** bbolt's MaxKeySize. */
    static final int MAX_KEY_SIZE = 32768;

    private Layout() {
    }
}
