package io.etcdj.server.etcdserver;

import io.etcdj.peerpb.MembersResponse;
import io.etcdj.server.config.ConfigException;
import io.etcdj.server.listen.ListenAddress;
import io.etcdj.server.membership.MemberIds;
import io.etcdj.server.transport.PeerTransport;
import io.netty.handler.ssl.SslContext;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.URI;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The refusal to bootstrap a new member into a cluster that already runs under another ID
 * (`conflicting cluster ID to the target cluster (a != b). Exiting.`, as in etcd's clustering
 * guide): each listed peer that answers within {@link #ANSWER_MILLIS} is asked for its cluster
 * ID; one that does not answer is not up yet, the usual case when a cluster starts. The asking
 * runs on a thread of its own, started with the member's storage, so that the wait for peers that
 * start at the same moment overlaps the opening of the backend instead of following it. A peer
 * whose port refuses the connection is not asked: a gRPC channel costs a member that starts
 * with its peers (none of which listens yet) ~80 ms of CPU for nothing.
 */
final class ConflictingClusterCheck {
    private static final long ANSWER_MILLIS = 300;

    /** The conflict's error text, or null once every peer answered with our cluster ID or not at all. */
    private final CompletableFuture<String> conflict = new CompletableFuture<>();

    private ConflictingClusterCheck() {
    }

    /** Starts asking {@code peers} (URLs), whose cluster is to be {@code clusterId}; {@code tls} for https peers. */
    static ConflictingClusterCheck start(List<String> peers, long clusterId, SslContext tls) {
        ConflictingClusterCheck check = new ConflictingClusterCheck();
        if (peers.isEmpty()) {
            check.conflict.complete(null);
            return check;
        }
        Thread t = new Thread(() -> {
            try {
                check.conflict.complete(firstConflict(peers, clusterId, tls));
            } catch (Throwable e) {
                // the start waits for this future: whatever ends the thread must end the wait too
                check.conflict.completeExceptionally(e);
            }
        }, "cluster-id-check");
        t.setDaemon(true);
        t.start();
        return check;
    }

    /** Waits for the peers' answers; throws etcd's error when one runs another cluster. */
    void await() throws ConfigException {
        String error = conflict.join();
        if (error != null) {
            throw new ConfigException(error);
        }
    }

    private static String firstConflict(List<String> peers, long clusterId, SslContext tls) {
        for (String url : peers) {
            if (!listening(url)) {
                continue; // not up yet
            }
            MembersResponse remote;
            try {
                remote = PeerTransport.fetchMembers(url, ANSWER_MILLIS, tls);
            } catch (RuntimeException e) {
                continue; // not up yet
            }
            if (remote.getClusterId() != 0 && remote.getClusterId() != clusterId) {
                return "conflicting cluster ID to the target cluster (" + MemberIds.hex(clusterId) + " != "
                        + MemberIds.hex(remote.getClusterId()) + "). Exiting.";
            }
        }
        return null;
    }

    /** Whether anything accepts a connection on the peer URL's address within {@link #ANSWER_MILLIS}. */
    static boolean listening(String peerUrl) {
        SocketAddress address;
        try {
            address = new ListenAddress(URI.create(peerUrl)).dialAddress();
        } catch (RuntimeException e) {
            return true; // let the call report what is wrong with the URL
        }
        try {
            if (address instanceof InetSocketAddress tcp) {
                try (Socket s = new Socket()) {
                    s.connect(tcp, (int) ANSWER_MILLIS);
                }
            } else {
                SocketChannel.open(address).close();
            }
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
