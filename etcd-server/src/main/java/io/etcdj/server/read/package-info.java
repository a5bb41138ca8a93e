/**
 * Linearizable reads (etcd's ReadIndex path): batches reads onto one ReadIndex request and
 * releases them once the member has applied up to the confirmed index, on an executor of the
 * caller's, never on the raft or apply thread. Knows nothing of Raft's types.
 */
package io.etcdj.server.read;
