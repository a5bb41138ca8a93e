package io.etcdj.server.wal;

import com.google.protobuf.ByteString;
import io.etcdj.raftpb.Entry;
import io.etcdj.raftpb.HardState;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Builders for the Raft values the WAL tests write. */
final class Entries {

    private Entries() {
    }

    static Entry entry(long index, long term, String data) {
        return Entry.newBuilder().setIndex(index).setTerm(term)
                .setData(ByteString.copyFrom(data, StandardCharsets.UTF_8)).build();
    }

    /** Entries {@code from..to} inclusive at {@code term}, with data naming index and term. */
    static List<Entry> range(long from, long to, long term) {
        List<Entry> out = new ArrayList<>();
        for (long i = from; i <= to; i++) {
            out.add(entry(i, term, "entry-" + i + "-term-" + term + "-padding-to-make-it-longer"));
        }
        return out;
    }

    /** Entries {@code from..to} inclusive at {@code term}, each carrying {@code bytes} of data (a follower catching up on big values). */
    static List<Entry> large(long from, long to, long term, int bytes) {
        List<Entry> out = new ArrayList<>();
        for (long i = from; i <= to; i++) {
            byte[] data = new byte[bytes];
            Arrays.fill(data, (byte) i);
            out.add(Entry.newBuilder().setIndex(i).setTerm(term).setData(ByteString.copyFrom(data)).build());
        }
        return out;
    }

    static HardState state(long term, long vote, long commit) {
        return HardState.newBuilder().setTerm(term).setVote(vote).setCommit(commit).build();
    }

    static byte[] metadata() {
        return "member=8e9e05c52164694d cluster=cdf818194e3a8c32".getBytes(StandardCharsets.UTF_8);
    }
}
