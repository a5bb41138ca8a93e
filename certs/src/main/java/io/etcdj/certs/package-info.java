/**
 * TLS material for etcdj: certificate authorities, server/peer/client certificates, self-signed
 * certificates for {@code --auto-tls}, PEM files, and the checks a member runs on its
 * {@code --cert-file}/{@code --key-file}/{@code --trusted-ca-file} before it serves.
 *
 * <p>Everything here is immutable values plus small static helpers; no class keeps global state
 * and none registers a JCA provider. BouncyCastle builds and parses; the JDK generates keys, signs
 * and validates chains (PKIX), so the certificates are exactly what {@code javax.net.ssl} and
 * Go's {@code crypto/tls} will see. This package must not depend on Netty, gRPC or the server:
 * callers turn {@link io.etcdj.certs.TlsFiles} into their own SSL contexts.
 */
package io.etcdj.certs;
