package io.etcdj.server.etcdserver;

import io.etcdj.raftpb.Message;
import io.etcdj.server.transport.Transporter;
import java.util.List;

/** Sends Raft messages to other members; the peer transport implements it. */
public interface PeerSender {
    void send(List<Message> messages);

    /** Whether a message to member {@code id} can leave now (see {@link Transporter#reachable}). */
    default boolean reachable(long id) {
        return true;
    }

    /** Sends over {@code transport}. */
    static PeerSender over(Transporter transport) {
        return new PeerSender() {
            @Override
            public void send(List<Message> messages) {
                transport.send(messages);
            }

            @Override
            public boolean reachable(long id) {
                return transport.reachable(id);
            }
        };
    }
}
