/**
 * etcd's client-visible errors in one catalogue ({@link io.etcdj.server.error.EtcdError}); every
 * layer throws these and the API layer maps them to gRPC status and HTTP responses in one place.
 */
package io.etcdj.server.error;
