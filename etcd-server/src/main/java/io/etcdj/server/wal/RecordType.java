package io.etcdj.server.wal;

/** Kinds of WAL record; the code is the byte stored in each frame header. */
enum RecordType {
    /** Opaque bytes given to {@link Wal#create}; repeated at the start of every segment. */
    METADATA(1),
    /** A raftpb.Entry. */
    ENTRY(2),
    /** A raftpb.HardState; the last one read wins. */
    STATE(3),
    /** First record of every segment: carries the running checksum over from the previous one. */
    CRC(4),
    /** A walpb.SnapshotMarker. */
    SNAPSHOT(5);

    final int code;

    RecordType(int code) {
        this.code = code;
    }

    static RecordType ofCode(int code) {
        for (RecordType t : values()) {
            if (t.code == code) {
                return t;
            }
        }
        return null;
    }
}
