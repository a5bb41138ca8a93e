/**
 * The write-ahead log of a Raft member: every HardState and entry is appended and fsynced here
 * before Raft may act on it (send messages, count a vote, acknowledge).
 *
 * <h2>Files</h2>
 * A directory of segment files named {@code %016x-%016x.wal}: sequence number, then the index of
 * the first entry written after the segment was cut. Segments are preallocated to the segment
 * size (64 MiB unless configured) and a new one is cut once the current one reaches it; a
 * finished segment is trimmed to its last record. A new segment is written as
 * {@code <name>.tmp}, synced, renamed into place and the directory synced, so a segment file
 * always starts complete. Every segment opens with a CRC record, the metadata record and (except
 * the first) the current HardState, so it can be read without the segments before it.
 *
 * <h2>Record frame</h2>
 * All integers little endian; every frame starts at a multiple of 8.
 * <pre>
 *  0  u32  payload length L
 *  4  u8   type: 1 metadata, 2 entry (raftpb.Entry), 3 state (raftpb.HardState),
 *          4 crc, 5 snapshot (walpb.SnapshotMarker)
 *  5  u8   padding after the payload, (8 - L % 8) % 8
 *  6  u8   flags: bit 0 set on the last record of one write (one save, one marker, or the
 *          opening records of a segment)
 *  7  u8   zero
 *  8  u32  chained checksum: CRC32C(previous record's checksum as 4 bytes || payload);
 *          a crc record instead stores the running checksum of the previous segment
 * 12  u32  header check: CRC32C of bytes 0..11
 * 16  payload, then padding zeros
 * </pre>
 * The chained checksum makes a missing, repeated or reordered record visible. The header check
 * lets recovery recognise an intact frame without knowing the chain, which is how it tells a torn
 * write from damage in the middle. The write-end flag makes each write all-or-nothing: records of
 * a write whose last record is missing are dropped on recovery. An all-zero header (the
 * preallocated tail) ends the data.
 *
 * <h2>Recovery</h2>
 * {@link io.etcdj.server.wal.Wal#readAll} stops at the first frame that is not intact. If only
 * zeros follow, that is the end of the log. If it is in the last segment and either no intact frame
 * follows or the damaged span holds an all-zero 512-byte sector (an unsynced write whose sectors
 * reached the disk out of order), it is a torn write from a crash: the whole unfinished write is
 * zeroed and appending continues where it began. Anything else throws
 * {@link io.etcdj.server.wal.WalCorruptedException} naming the file and offset.
 *
 * <h2>Threading</h2>
 * A {@link io.etcdj.server.wal.Wal} is not thread-safe and does no locking: one owning thread, the
 * server's Raft loop, makes every call. Each {@code save} is one write and at most one fsync, so
 * the owner gets group commit by passing a whole Ready at once. The fsync listener runs on that
 * thread and must be cheap. The static readers ({@code verify}, {@code validSnapshots},
 * {@code exists}) must not run while another process appends to the same directory.
 *
 * <h2>Boundaries</h2>
 * This package owns the files it names ({@code *.wal}, {@code *.wal.tmp}) in the WAL directory and
 * nothing else. It knows Raft's persistent types but not Raft's rules; {@link
 * io.etcdj.server.wal.DiskIo} is the only way it touches the file system.
 */
package io.etcdj.server.wal;
