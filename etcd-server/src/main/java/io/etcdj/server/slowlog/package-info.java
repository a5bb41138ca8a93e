/**
 * Warnings about slow work, in etcd's words: "request stats" for a unary gRPC request slower than
 * --warning-unary-request-duration and "apply request took too long" for an applied Raft request
 * slower than --warning-apply-duration, with requests shown as etcd shows them (Go's compact
 * protobuf text, put values replaced by their size). Owns only the formatting and the decision
 * to log; it does not time anything itself and changes no request.
 */
package io.etcdj.server.slowlog;
