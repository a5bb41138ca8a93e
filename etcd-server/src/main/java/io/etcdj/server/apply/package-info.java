/**
 * Applying committed Raft entries to the state machines (MVCC store, lessor, membership, alarms),
 * deterministically, with failures as values ({@link io.etcdj.server.apply.ApplyResult}). It does
 * not touch Raft, the WAL or the network. Requests go through a chain of appliers in etcd's order
 * ({@link io.etcdj.server.apply.RequestApplier#chain}): corrupt (CORRUPT alarm), capped (NOSPACE
 * alarm), then the backend ({@link io.etcdj.server.apply.Applier}); auth and quota stages join it.
 */
package io.etcdj.server.apply;
