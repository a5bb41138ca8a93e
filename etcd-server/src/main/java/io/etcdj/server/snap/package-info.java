/**
 * Raft snapshot files of a member ({@code member/snap}): saving them atomically, loading the
 * newest one the WAL vouches for, and keeping only the newest few.
 *
 * <p>File format: magic "ESNP", CRC32C of the body (u32 little endian), body = raftpb.Snapshot.
 *
 * <p>Boundaries: the snap directory is shared with the backend file {@code db}; this package only
 * ever creates, renames or deletes names of its own ({@code %016x-%016x.snap} and the same with
 * {@code .tmp} or {@code .broken} appended). It goes through {@link io.etcdj.server.wal.DiskIo} so
 * that the crash tests of the WAL apply here too. One owning thread, like the WAL.
 */
package io.etcdj.server.snap;
