/**
 * The watchable store: synced and unsynced watcher groups over the MVCC store's history.
 * It owns the hub thread that feeds watchers catching up; it does not own gRPC streams, which
 * plug in as {@link io.etcdj.server.watch.WatchSink}s.
 */
package io.etcdj.server.watch;
