/**
 * The Raft consensus core: a pure, deterministic state machine in the style of a "raw node".
 * It owns elections (with pre-vote and check-quorum leases), log replication, commitment,
 * ReadIndex, snapshots, single-step membership changes with learners, and leader transfer.
 *
 * <p>It must not touch threads, sockets, clocks, files or any randomness other than the
 * {@link java.util.Random} in {@link io.etcdj.server.raft.RaftConfig}. Time is {@code tick()}s.
 *
 * <h2>Driver contract</h2>
 * A single loop owns a {@link io.etcdj.server.raft.RawNode} and repeatedly:
 * <ol>
 *   <li>calls {@code tick()} on its timer and {@code step(m)} for each peer message;</li>
 *   <li>when {@code hasReady()}, takes {@code ready()} and
 *       <ol>
 *         <li>persists {@code hardState}, {@code entries} and {@code snapshot} with one fsync
 *             (when {@code mustSync}), and mirrors them into its {@code MemoryRaftStorage};</li>
 *         <li>then sends {@code messages} (a message may promise something only durable state backs);</li>
 *         <li>then applies the snapshot and {@code committedEntries}, calling
 *             {@code applyConfChange} for conf change entries, and serves {@code readStates};</li>
 *         <li>then calls {@code advance(rd)}.</li>
 *       </ol>
 *   </li>
 * </ol>
 * Network failures are reported with {@code reportUnreachable}; snapshot delivery with
 * {@code reportSnapshot}.
 *
 * <p>Owns: everything under {@code io.etcdj.server.raft}. Must not touch the WAL, the backend,
 * the transport or the apply layer; those drive it.
 */
package io.etcdj.server.raft;
