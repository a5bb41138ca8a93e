/**
 * Quorum arithmetic for single (non-joint) configurations: committed index from per-voter
 * acknowledgements and election outcome from votes. Owns no Raft state and must not depend on
 * the rest of the Raft core, messages or storage.
 */
package io.etcdj.raft.quorum;
