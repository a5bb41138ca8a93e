/**
 * Applying committed Raft entries to the state machines (MVCC store, lessor, membership, alarms),
 * deterministically, with failures as values ({@link io.etcdj.server.apply.ApplyResult}). It does
 * not touch Raft, the WAL or the network.
 */
package io.etcdj.server.apply;
