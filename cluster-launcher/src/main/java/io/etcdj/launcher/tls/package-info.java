/**
 * Certificates for {@code tls: true} clusters, made with the project's {@code certs} library: one
 * CA per cluster, a server and a peer certificate per member, and a client certificate for the
 * launcher and etcdctl, all under the base dir's certs/ directory.
 *
 * <p>Owns the certs/ directory only. It must not start processes or open connections.
 */
package io.etcdj.launcher.tls;
