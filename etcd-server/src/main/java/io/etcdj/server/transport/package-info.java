/**
 * The peer transport: Raft messages, snapshots, discovery and forwarded lease calls between
 * members, over gRPC on the peer URLs, each message checked against the cluster ID and the
 * removed-member list. It does not interpret Raft messages.
 */
package io.etcdj.server.transport;
