package io.etcdj.server.transport;

import java.time.Duration;

/**
 * How peer connections behave (etcd's rafthttp connection settings).
 *
 * @param readTimeout an incoming peer connection that answers no keep-alive ping within this time
 *                    is dropped (--raft-read-timeout; zero: never)
 * @param writeTimeout a Raft stream to a peer that cannot take more data for this long is reset
 *                     (--raft-write-timeout; zero: never)
 * @param localAddress the address outgoing peer connections are made from (SetMemberLocalAddr);
 *                     null: the system picks
 * @param verifyClientSan a peer's client certificate must name the address it connects from
 *                        (off with --peer-skip-client-san-verification)
 */
public record PeerLinks(Duration readTimeout, Duration writeTimeout, String localAddress, boolean verifyClientSan) {
    /** etcd's defaults: 5 s each, the system's source address, the SAN check on. */
    public static final PeerLinks DEFAULTS = new PeerLinks(Duration.ofSeconds(5), Duration.ofSeconds(5), null, true);
}
