/**
 * Talking to members over their client URLs with the generated etcd gRPC stubs: status,
 * membership changes, and the TLS settings for that.
 *
 * <p>Owns gRPC channels only. It must not start or signal processes.
 */
package io.etcdj.launcher.client;
