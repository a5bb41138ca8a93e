/**
 * etcd's auto-compaction ({@code --auto-compaction-mode periodic|revision}). It asks the member
 * for revisions and proposes compactions through the small {@link io.etcdj.server.compactor.Compactor.Target}
 * interface it owns, so it depends on no server class.
 */
package io.etcdj.server.compactor;
