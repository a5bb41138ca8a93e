/**
 * bbolt's on-disk format, read and written without bbolt: the single-file B+tree database that
 * etcd keeps as {@code member/snap/db} and streams as a snapshot. Used to bring a real
 * etcd's data in and to hand ours back out, the Snapshot RPC's stream included; the server
 * itself stores its data in LMDB.
 *
 * <h2>The file</h2>
 * A sequence of pages of one size (the {@code pageSize} of the meta page, usually 4096). Page
 * {@code n} starts at byte {@code n * pageSize}. All integers are little-endian (bbolt writes its
 * structs as the machine lays them out, and etcd runs on little-endian machines).
 *
 * <h2>Pages</h2>
 * Every page starts with a 16-byte header: {@code id} (uint64, the page's own number),
 * {@code flags} (uint16: 0x01 branch, 0x02 leaf, 0x04 meta, 0x10 freelist), {@code count}
 * (uint16, elements on the page) and {@code overflow} (uint32): a page whose content is larger
 * than one page occupies {@code 1 + overflow} consecutive pages.
 * <ul>
 * <li><b>meta</b> (pages 0 and 1): magic {@code 0xED0CDAED}, version 2, page size, flags,
 * the root bucket (root page, sequence), the freelist page, the high-water mark (pages in use,
 * so the database is {@code hwm * pageSize} bytes), the transaction id and an FNV-1a 64 checksum
 * of the 56 bytes before it. A reader takes the valid meta with the higher transaction id.</li>
 * <li><b>freelist</b>: {@code count} page ids (uint64) that are free; a count of 0xFFFF means
 * the real count is the first uint64. A meta freelist of 0xFFFF_FFFF_FFFF_FFFF means none was
 * written.</li>
 * <li><b>branch</b>: {@code count} elements of 16 bytes ({@code pos}, {@code ksize} as uint32,
 * child page as uint64); each key is the first key of its child and lies {@code pos} bytes after
 * its element.</li>
 * <li><b>leaf</b>: {@code count} elements of 16 bytes ({@code flags}, {@code pos},
 * {@code ksize}, {@code vsize} as uint32); key then value lie {@code pos} bytes after the
 * element. Flag 0x01 marks a nested bucket: its value is a 16-byte bucket header (root page,
 * sequence), followed, when the root page is 0, by the whole bucket as an inline page.</li>
 * </ul>
 * Top-level buckets are the elements of the tree rooted at the meta's root page.
 *
 * <p>Owns: parsing and producing that format ({@link io.etcdj.server.bbolt.BboltReader},
 * {@link io.etcdj.server.bbolt.BboltWriter}). Must not touch: etcd's bucket contents (what keys
 * and values mean is the caller's business) or the server's own backend.
 */
package io.etcdj.server.bbolt;
