/**
 * Cluster membership: member and cluster IDs (derived as etcd derives them), the applied member
 * list with removed IDs, and the one place of its rules: validating member add, remove, update
 * and promote with etcd's errors, and applying committed conf changes. Owns the members buckets; Raft's own configuration is the raft
 * package's, kept in step by the server when conf changes apply.
 */
package io.etcdj.server.membership;
