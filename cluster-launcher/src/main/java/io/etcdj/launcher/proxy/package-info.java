/**
 * The fault-injecting TCP proxy on peer links. Each member advertises a peer URL owned by its
 * {@link io.etcdj.launcher.proxy.FaultProxy}, which forwards to the member's real peer listener and
 * applies the {@link io.etcdj.launcher.proxy.FaultRules}: partitions (connections refused and cut)
 * and delays (every chunk held back), in both directions.
 *
 * <p>Owns proxy sockets and their threads. It must not start members or talk gRPC.
 */
package io.etcdj.launcher.proxy;
