package io.etcdj.server.tls;

import io.netty.handler.ssl.SslContext;

/**
 * The checked TLS contexts of a member.
 *
 * @param clientPort for https --listen-client-urls (ALPN h2 and http/1.1); null when all are http
 * @param peerServer for https --listen-peer-urls; null when all are http
 * @param peerClient for dialing https peer URLs with the peer certificate as client certificate;
 *                   null when there is no peer certificate (the JDK's defaults are used)
 */
public record MemberTls(SslContext clientPort, SslContext peerServer, SslContext peerClient) {
}
