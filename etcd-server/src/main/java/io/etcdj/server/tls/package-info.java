/**
 * Transport security for a member: decides which certificate files each side uses (given ones,
 * or self-signed ones for --auto-tls/--peer-auto-tls), checks them once at start-up so a bad file
 * stops the member with one line naming it, turns them into Netty {@code SslContext}s for the
 * client port, the peer port and outgoing peer connections, and runs the TLS handshake on the
 * shared client port. It owns no sockets and does not know gRPC or HTTP beyond the handshake:
 * the listeners and the peer transport decide what runs over the connection.
 */
package io.etcdj.server.tls;
