package io.etcdj.server.etcdserver;

import io.etcdj.raftpb.Message;
import java.util.List;

/** Sends Raft messages to other members; the peer transport implements it. */
public interface PeerSender {
    void send(List<Message> messages);
}
