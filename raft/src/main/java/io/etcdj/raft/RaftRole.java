package io.etcdj.raft;

/** The role a node plays in its current term. */
public enum RaftRole {
    FOLLOWER,
    CANDIDATE,
    PRE_CANDIDATE,
    LEADER
}
