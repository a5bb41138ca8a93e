package io.etcdj.ctl.command;

import io.etcdj.cli.CliException;
import io.etcdj.cli.GoJsonString;
import io.etcdj.format.GoBytes;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@code recover-space} did, printed at the end: one line per step in the simple format
 * (sizes as etcdctl's endpoint status writes them), or one JSON object with {@code -w json}.
 */
final class RecoveryReport {

    private record Defrag(String endpoint, long memberId, long before, long after, String error) {
        long won() {
            return error == null ? Math.max(0, before - after) : 0;
        }
    }

    private record Disarmed(long memberId, String alarm) {
    }

    private final boolean json;
    private long revision;
    private boolean compacted;
    private final List<Defrag> defrags = new ArrayList<>();
    private final List<Disarmed> disarmed = new ArrayList<>();

    RecoveryReport(String format) {
        if (!"simple".equals(format) && !"json".equals(format)) {
            throw CliException.unsupportedFormat(format);
        }
        this.json = "json".equals(format);
    }

    /** The compaction step; {@code done} false when the key space was compacted there already. */
    void compacted(long rev, boolean done) {
        this.revision = rev;
        this.compacted = done;
    }

    void defragmented(String endpoint, long memberId, long before, long after) {
        defrags.add(new Defrag(endpoint, memberId, before, after, null));
    }

    void defragFailed(String endpoint, String error) {
        defrags.add(new Defrag(endpoint, 0, 0, 0, error));
    }

    void disarmed(long memberId, String alarm) {
        disarmed.add(new Disarmed(memberId, alarm));
    }

    long spaceWon() {
        return defrags.stream().mapToLong(Defrag::won).sum();
    }

    String render() {
        return json ? json() : simple();
    }

    private String simple() {
        StringBuilder b = new StringBuilder();
        b.append(compacted ? "compacted revision " + revision : "revision " + revision + " was compacted already").append('\n');
        for (Defrag d : defrags) {
            if (d.error != null) {
                b.append("failed to defragment ").append(d.endpoint).append(" (").append(d.error).append(")\n");
            } else {
                b.append(String.format("defragmented %s (member %x): %s -> %s%n", d.endpoint, d.memberId,
                        GoBytes.format(d.before), GoBytes.format(d.after)));
            }
        }
        if (disarmed.isEmpty()) {
            b.append("no alarm to disarm\n");
        }
        for (Disarmed a : disarmed) {
            b.append(String.format("disarmed alarm %s of member %x%n", a.alarm, a.memberId));
        }
        long members = defrags.stream().filter(d -> d.error == null).count();
        b.append("space won: ").append(GoBytes.format(spaceWon())).append(" on ").append(members)
                .append(members == 1 ? " member" : " members").append('\n');
        return b.toString();
    }

    private String json() {
        StringBuilder b = new StringBuilder("{\"revision\":").append(revision).append(",\"compacted\":").append(compacted)
                .append(",\"members\":[");
        for (int i = 0; i < defrags.size(); i++) {
            Defrag d = defrags.get(i);
            b.append(i == 0 ? "" : ",").append("{\"endpoint\":").append(GoJsonString.quote(d.endpoint));
            if (d.error != null) {
                b.append(",\"error\":").append(GoJsonString.quote(d.error)).append('}');
            } else {
                b.append(",\"member_id\":").append(Long.toUnsignedString(d.memberId)).append(",\"db_size_before\":")
                        .append(d.before).append(",\"db_size_after\":").append(d.after).append('}');
            }
        }
        b.append("],\"disarmed\":[");
        for (int i = 0; i < disarmed.size(); i++) {
            Disarmed a = disarmed.get(i);
            b.append(i == 0 ? "" : ",").append("{\"member_id\":").append(Long.toUnsignedString(a.memberId))
                    .append(",\"alarm\":").append(GoJsonString.quote(a.alarm)).append('}');
        }
        return b.append("],\"space_won\":").append(spaceWon()).append("}\n").toString();
    }
}
