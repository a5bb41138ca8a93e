/**
 * The Raft consensus core: a pure, deterministic state machine in the style of a "raw node".
 * It owns elections (with pre-vote and check-quorum leases), log replication, commitment,
 * ReadIndex, snapshots, single-step membership changes with learners, and leader transfer.
 *
 * <p>It must not touch threads, sockets, clocks, files or any randomness other than the
 * {@link java.util.Random} in {@link io.etcdj.raft.RaftConfig}. Time is {@code tick()}s.
 *
 * <h2>Driver contract</h2>
 * A single loop owns a {@link io.etcdj.raft.RawNode} and repeatedly:
 * <ol>
 *   <li>calls {@code tick()} on its timer and {@code step(m)} for each peer message;</li>
 *   <li>when {@code hasReady()}, takes {@code ready()} and
 *       <ol>
 *         <li>persists {@code hardState}, {@code entries} and {@code snapshot} with one fsync
 *             (when {@code mustSync}), and mirrors them into its {@code MemoryRaftStorage};</li>
 *         <li>then sends {@code messages} (a message may promise something only durable state backs);
 *             a leader may send them before persisting, in parallel with its own write, when the
 *             Ready neither changes the term nor carries a snapshot: it counts its own log toward a
 *             commit only together with a follower's acknowledgement, which it steps after the
 *             Ready was persisted (the server does this, as etcd does);</li>
 *         <li>then applies (or hands over for applying) the snapshot and {@code committedEntries},
 *             and serves {@code readStates} once applied up to their index;</li>
 *         <li>then calls {@code advance(rd)}.</li>
 *       </ol>
 *   </li>
 * </ol>
 *
 * <h2>Synchronous and asynchronous apply</h2>
 * With {@link io.etcdj.raft.RaftConfig#asyncApply()} off (tests, simple drivers),
 * {@code advance} marks the Ready's committed entries applied, so they must be applied before it
 * is called, with {@code applyConfChange} for each conf change. The server turns it on: committed
 * entries are handed to an apply thread and {@code advance} only records them as handed out; the
 * apply thread later calls {@code applyConfChange} for each conf change and
 * {@code appliedTo(index)} for what it applied, both through the loop that owns the node, in log
 * order. Until a committed conf change is reported applied the node does not campaign, so it never
 * acts on a membership its application has not reached.
 *
 * <h2>Restart</h2>
 * A restarting driver passes the last index its application persisted as
 * {@code RaftConfig.applied} and records the membership in force there with
 * {@code MemoryRaftStorage.setConfState}; {@link io.etcdj.raft.RestartPoint} computes both
 * from the snapshot, the hard state, the log and the application's consistent index.
 *
 * Network failures are reported with {@code reportUnreachable}; snapshot delivery with
 * {@code reportSnapshot}.
 *
 * <p>Owns: everything under {@code io.etcdj.raft}. Must not touch the WAL, the backend,
 * the transport or the apply layer; those drive it.
 */
package io.etcdj.raft;
