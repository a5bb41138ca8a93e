package io.etcdj.robustness;

/**
 * One client operation on one key of a register, as the client saw it.
 *
 * @param id unique within a history
 * @param client the client that issued it (one operation at a time per client)
 * @param key the register
 * @param kind READ, WRITE or CAS
 * @param value the value written (WRITE, CAS), or the value read (READ; null: absent)
 * @param expected the value a CAS compares with (null: absent)
 * @param invokeNanos when it was sent
 * @param returnNanos when its answer came, or {@link Long#MAX_VALUE} when its outcome is unknown
 * @param outcome OK, FAILED (a CAS whose compare failed) or UNKNOWN (timeout, indefinite error)
 * @param revision the response header's revision (0 when unknown)
 * @param member the member the client talked to
 */
public record Op(int id, int client, String key, Kind kind, String value, String expected, long invokeNanos,
                 long returnNanos, Outcome outcome, long revision, String member) {

    public enum Kind { READ, WRITE, CAS }

    public enum Outcome { OK, FAILED, UNKNOWN }

    boolean unknown() {
        return outcome == Outcome.UNKNOWN;
    }

    @Override
    public String toString() {
        String what = switch (kind) {
            case READ -> "read " + key + " -> " + value;
            case WRITE -> "write " + key + " = " + value;
            case CAS -> "cas " + key + " " + expected + " -> " + value;
        };
        return String.format("#%d c%d %s %s [%d, %s] rev=%d via %s", id, client, what, outcome, invokeNanos,
                returnNanos == Long.MAX_VALUE ? "inf" : Long.toString(returnNanos), revision, member);
    }
}
