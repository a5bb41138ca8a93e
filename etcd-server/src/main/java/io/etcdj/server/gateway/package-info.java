/**
 * HTTP on the client port beside gRPC (as etcd's cmux): protocol detection, the JSON gateway
 * (routes read from the protos' google.api.http options), /health, /version and /metrics.
 */
package io.etcdj.server.gateway;
