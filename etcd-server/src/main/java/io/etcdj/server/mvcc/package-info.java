/**
 * Multi-version concurrency control: revisions, the in-memory key index and etcd's KV semantics
 * (Range options, put, delete, compaction, history for watchers) over the backend's key bucket.
 * A compaction is applied in the write batch and carried out afterwards, in batches, by the
 * store's compactor ({@code Compactions}), which resumes one a crash cut short.
 * It does not know about Raft, leases' expiry or the network: callers pass lease IDs and apply
 * requests in Raft order.
 */
package io.etcdj.server.mvcc;
