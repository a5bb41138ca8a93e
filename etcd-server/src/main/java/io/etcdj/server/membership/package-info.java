/**
 * Cluster membership: member and cluster IDs (derived as etcd derives them) and the applied
 * member list with removed IDs. Owns the members buckets; Raft's own configuration is the raft
 * package's, kept in step by the server when conf changes apply.
 */
package io.etcdj.server.membership;
