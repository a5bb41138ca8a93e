package io.etcdj.server.mvcc;

import io.etcdj.api.mvccpb.Event;
import io.etcdj.api.mvccpb.KeyValue;

/**
 * One change made by an applied write, as watchers see it. {@code prevRevision} locates the
 * key's previous live value in the backend (null if the key did not exist), fetched only for
 * watchers that asked for prev_kv.
 */
public record ChangeEvent(Event.EventType type, KeyValue kv, Revision prevRevision) {
    public long revision() {
        return kv.getModRevision();
    }
}
