/**
 * Offline operations on a stopped member's data directory and on snapshot files, for etcdutl:
 * snapshot status, restore into a new cluster, defragmentation and the KV history hash; and the
 * migration to and from a real etcd: its bbolt snapshot files read on restore and status, and
 * written by export (record conversions in {@code EtcdSchema}). The public entry point into the
 * server's storage (Storage itself is package-private).
 *
 * <p>Owns nothing at run time: it must never be used on a data directory a running member has
 * open (the one exception: a running member writes its Snapshot RPC's file with
 * {@link io.etcdj.server.datadir.EtcdExport#writeBbolt} from a read view of its own backend,
 * which reads and never writes the backend), and it changes the server's files only through the server's own classes (Backend,
 * Membership, Wal, Snapshotter), so what it writes is exactly what the server reads back.
 */
package io.etcdj.server.datadir;
