/**
 * A running member as one object: {@link io.etcdj.server.embed.Member} checks TLS material, opens
 * the server, listens on the peer and client URLs (gRPC, the JSON gateway, /health, /metrics and
 * /version on one port) and closes everything in order. Tests embed a member through it.
 * Owns the client listeners; must not reach into Raft or storage.
 */
package io.etcdj.server.embed;
