package io.etcdj.server.etcdserver;

import io.etcdj.api.etcdserverpb.ResponseHeader;
import io.etcdj.server.api.WatchOperations;
import io.etcdj.server.watch.ProgressNotifier;
import io.etcdj.server.watch.WatchHub;

/** What watch streams use of the member: the watchable store, progress notifications and headers. */
final class WatchOps implements WatchOperations {
    private final EtcdServer server;

    WatchOps(EtcdServer server) {
        this.server = server;
    }

    @Override
    public WatchHub hub() {
        return server.watchHub();
    }

    @Override
    public ProgressNotifier progress() {
        return server.progressNotifier();
    }

    @Override
    public ResponseHeader header(long revision) {
        return server.header(revision);
    }

    @Override
    public ResponseHeader header() {
        return server.header();
    }

    @Override
    public int maxRequestBytes() {
        return server.config().maxRequestBytes();
    }
}
