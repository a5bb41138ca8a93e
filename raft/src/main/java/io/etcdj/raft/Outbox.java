package io.etcdj.raft;

import com.google.protobuf.ByteString;
import io.etcdj.raftpb.Message;
import io.etcdj.raftpb.MessageType;
import java.util.ArrayList;
import java.util.List;

/**
 * What a node has to say until the next {@link Ready} takes it: the messages it sends (stamped
 * with its ID and term as Raft's rules say) and the answers to read requests.
 */
final class Outbox {
    private final long id;
    private List<Message> msgs = new ArrayList<>();
    /**
     * Proposals this follower forwards to its leader, gathered into one MsgProp while no other
     * message is sent after them: the proposals made in one turn reach the leader as one message
     * with many entries (one send, one step there) instead of one message each. It joins
     * {@link #msgs} when another message is sent or the Ready is taken ({@link #flushForwarded}).
     */
    private Message.Builder forwarded;
    private List<ReadState> readStates = new ArrayList<>();

    Outbox(long id) {
        this.id = id;
    }

    /** Sends {@code m} from this node at {@code term} (proposals and reads keep term 0, as local messages). */
    void send(Message.Builder m, long term) {
        if (m.getFrom() == Raft.NONE) {
            m.setFrom(id);
        }
        MessageType t = m.getType();
        if (t == MessageType.MsgProp) {
            if (forwarded != null && forwarded.getTo() == m.getTo() && forwarded.getFrom() == m.getFrom()) {
                forwarded.addAllEntries(m.getEntriesList());
                return;
            }
            flushForwarded();
            forwarded = m;
            return;
        }
        flushForwarded();
        boolean voteish = Raft.isVoteRequest(t) || t == MessageType.MsgVoteResp || t == MessageType.MsgPreVoteResp;
        if (voteish) {
            if (m.getTerm() == 0) {
                throw new IllegalStateException("term should be set when sending " + t);
            }
        } else if (t != MessageType.MsgReadIndex) {
            m.setTerm(term);
        }
        msgs.add(m.build());
    }

    /** Whether messages wait to be taken with the next Ready. */
    boolean hasMessages() {
        return forwarded != null || !msgs.isEmpty();
    }

    boolean hasReadStates() {
        return !readStates.isEmpty();
    }

    /** Puts the gathered forwarded proposals in {@link #msgs}, after everything sent before them. */
    void flushForwarded() {
        if (forwarded != null) {
            msgs.add(forwarded.build());
            forwarded = null;
        }
    }

    void addReadState(long index, ByteString ctx) {
        readStates.add(new ReadState(index, ctx.toByteArray()));
    }

    /** The messages sent so far, in order; the outbox starts empty again. */
    List<Message> takeMessages() {
        flushForwarded();
        List<Message> out = msgs;
        msgs = new ArrayList<>();
        return out;
    }

    List<ReadState> takeReadStates() {
        List<ReadState> out = readStates;
        readStates = new ArrayList<>();
        return out;
    }
}
