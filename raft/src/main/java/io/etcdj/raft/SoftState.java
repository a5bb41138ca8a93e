package io.etcdj.raft;

/** Volatile state worth telling the driver about: who leads and which role this node plays. Never persisted. */
public record SoftState(long lead, RaftRole role) {
}
