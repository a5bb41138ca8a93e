package io.etcdj.raft;

import io.etcdj.raftpb.Message;

/** How one role handles a message of the current term that is not a vote request. */
interface RoleBehavior {
    void step(Message m);
}
