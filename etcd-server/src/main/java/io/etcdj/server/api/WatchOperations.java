package io.etcdj.server.api;

import io.etcdj.api.etcdserverpb.ResponseHeader;
import io.etcdj.server.watch.ProgressNotifier;
import io.etcdj.server.watch.WatchHub;

/** What watch streams need of the member (owned here, implemented by the server). */
public interface WatchOperations {
    /** The watchable store. */
    WatchHub hub();

    ProgressNotifier progress();

    /** A header at {@code revision} (0: no revision, as etcd's cancel responses). */
    ResponseHeader header(long revision);

    /** The current header. */
    ResponseHeader header();

    /** --max-request-bytes: watch responses larger than this are fragmented on request. */
    int maxRequestBytes();
}
