package io.etcdj.server.etcdserver;

import io.etcdj.api.etcdserverpb.ResponseHeader;
import io.etcdj.server.api.WatchOperations;
import io.etcdj.server.watch.ProgressNotifier;
import io.etcdj.server.watch.WatchHub;

/** What watch streams use of the member: the watchable store, progress notifications and headers. */
final class WatchOps implements WatchOperations {
    private final WatchHub hub;
    private final ProgressNotifier progress;
    private final Headers headers;
    private final int maxRequestBytes;

    WatchOps(WatchHub hub, ProgressNotifier progress, Headers headers, int maxRequestBytes) {
        this.hub = hub;
        this.progress = progress;
        this.headers = headers;
        this.maxRequestBytes = maxRequestBytes;
    }

    @Override
    public WatchHub hub() {
        return hub;
    }

    @Override
    public ProgressNotifier progress() {
        return progress;
    }

    @Override
    public ResponseHeader header(long revision) {
        return headers.header(revision);
    }

    @Override
    public ResponseHeader header() {
        return headers.header();
    }

    @Override
    public int maxRequestBytes() {
        return maxRequestBytes;
    }
}
