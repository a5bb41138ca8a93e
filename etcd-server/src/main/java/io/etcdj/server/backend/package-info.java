/**
 * The backend file: LMDB under etcd's bucket layout ({@link io.etcdj.server.backend.Bucket}).
 * Owns the file {@code member/snap/db}, its transactions, defragmentation and consistent copies.
 * It knows nothing of revisions, leases or Raft; callers encode their own keys and values.
 */
package io.etcdj.server.backend;
