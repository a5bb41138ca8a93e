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
 * @param dialTimeout how long a connection to a peer may take to open (etcd's PeerDialTimeout:
 *                    a second plus the election timeout)
 */
public record PeerLinks(Duration readTimeout, Duration writeTimeout, String localAddress, boolean verifyClientSan,
                        Duration dialTimeout) {
    /** etcd's defaults: 5 s each, the system's source address, the SAN check on, 1 s + a 1 s election timeout. */
    public static final PeerLinks DEFAULTS = new PeerLinks(Duration.ofSeconds(5), Duration.ofSeconds(5), null, true,
            Duration.ofSeconds(2));
}
