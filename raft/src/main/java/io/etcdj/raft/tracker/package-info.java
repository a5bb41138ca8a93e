/**
 * Membership and the leader's per-peer replication progress (probe / replicate / snapshot, with a
 * bounded in-flight window). Owns no log and sends no messages: the Raft core reads and updates it.
 */
package io.etcdj.raft.tracker;
