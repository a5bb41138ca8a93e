/**
 * The watchable store: synced and unsynced watcher groups over the MVCC store's history, and the
 * progress-notify timer. It owns the hub thread that feeds watchers catching up; it knows nothing
 * of gRPC or of {@code api}: each watcher's events go to its {@link io.etcdj.server.watch.WatchSink},
 * which the member's adapter ({@code etcdserver.WatchOps}) passes on to a watch stream.
 */
package io.etcdj.server.watch;
