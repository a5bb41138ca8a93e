/**
 * Progress lines for long work (beyond etcd): {@link io.etcdj.cli.progress.ProgressLine} draws one
 * line rewritten in place on a terminal's stderr, {@link io.etcdj.cli.progress.Terminals} says
 * whether a person is watching. Shared by etcdctl, etcdutl and the cluster launcher so every tool
 * shows progress, and stays silent for scripts, the same way.
 */
package io.etcdj.cli.progress;
