package io.etcdj.raft;

import io.etcdj.raftpb.Entry;
import io.etcdj.raftpb.HardState;
import io.etcdj.raftpb.Message;
import io.etcdj.raftpb.Snapshot;
import java.util.List;

/**
 * Everything the driver must do for one step of the node, in this order:
 * <ol>
 *   <li>persist {@code hardState}, {@code entries} and {@code snapshot} (one fsync when
 *       {@code mustSync}); entries overwrite any durable entries at the same indexes;</li>
 *   <li>send {@code messages};</li>
 *   <li>apply {@code snapshot}, then {@code committedEntries} (calling
 *       {@link RawNode#applyConfChange} for conf change entries), and serve {@code readStates}
 *       once applied up to their index; with {@link RaftConfig#asyncApply()} hand them to the
 *       applier instead, which reports progress with {@link RawNode#appliedTo};</li>
 *   <li>call {@link RawNode#advance(Ready)}.</li>
 * </ol>
 *
 * @param softState leader and role, or null if unchanged since the previous Ready
 * @param hardState term, vote and commit to persist, or null if unchanged
 * @param entries entries to append to durable storage before sending messages
 * @param snapshot snapshot to persist and apply, or null
 * @param committedEntries entries to apply to the state machine (already in storage or in {@code entries})
 * @param messages messages to send once the above is durable
 * @param readStates answers to {@link RawNode#readIndex} requests
 * @param mustSync whether the persisted data must be fsynced (term, vote or log changed)
 */
public record Ready(SoftState softState, HardState hardState, List<Entry> entries, Snapshot snapshot,
                    List<Entry> committedEntries, List<Message> messages, List<ReadState> readStates, boolean mustSync) {
    public Ready {
        entries = List.copyOf(entries);
        committedEntries = List.copyOf(committedEntries);
        messages = List.copyOf(messages);
        readStates = List.copyOf(readStates);
    }
}
