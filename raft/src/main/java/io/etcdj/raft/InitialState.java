package io.etcdj.raft;

import io.etcdj.raftpb.ConfState;
import io.etcdj.raftpb.HardState;
import java.util.Objects;

/** What a node restarts from: the persisted term/vote/commit and the membership of its latest snapshot. */
public record InitialState(HardState hardState, ConfState confState) {
    public InitialState {
        Objects.requireNonNull(hardState, "hardState");
        Objects.requireNonNull(confState, "confState");
    }
}
