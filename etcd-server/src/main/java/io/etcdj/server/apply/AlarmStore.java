package io.etcdj.server.apply;

import io.etcdj.api.etcdserverpb.AlarmMember;
import io.etcdj.api.etcdserverpb.AlarmType;
import io.etcdj.server.backend.Bucket;
import io.etcdj.server.backend.ReadTx;
import io.etcdj.server.backend.WriteTx;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Raised alarms (NOSPACE, CORRUPT) per member, applied in Raft order and kept in the alarm bucket. */
public final class AlarmStore {
    private final CopyOnWriteArrayList<AlarmMember> alarms = new CopyOnWriteArrayList<>();

    public void restore(ReadTx tx) {
        alarms.clear();
        tx.forEach(Bucket.ALARM, null, null, (k, v) -> {
            ByteBuffer b = ByteBuffer.wrap(k);
            alarms.add(AlarmMember.newBuilder().setMemberID(b.getLong()).setAlarmValue(b.getInt()).build());
            return true;
        });
    }

    public List<AlarmMember> list() {
        return List.copyOf(alarms);
    }

    /** Asked for every request: a plain loop over what is almost always an empty list. */
    public boolean has(AlarmType type) {
        if (alarms.isEmpty()) {
            return false;
        }
        for (AlarmMember a : alarms) {
            if (a.getAlarm() == type) {
                return true;
            }
        }
        return false;
    }

    /** Raises an alarm; returns it, or null if it was already raised. */
    public AlarmMember activate(WriteTx tx, long memberId, AlarmType type) {
        AlarmMember a = AlarmMember.newBuilder().setMemberID(memberId).setAlarm(type).build();
        if (alarms.contains(a)) {
            return null;
        }
        alarms.add(a);
        tx.put(Bucket.ALARM, key(a), new byte[0]);
        return a;
    }

    /** Clears an alarm; returns it, or null if it was not raised. */
    public AlarmMember deactivate(WriteTx tx, long memberId, AlarmType type) {
        AlarmMember a = AlarmMember.newBuilder().setMemberID(memberId).setAlarm(type).build();
        if (!alarms.remove(a)) {
            return null;
        }
        tx.delete(Bucket.ALARM, key(a));
        return a;
    }

    private static byte[] key(AlarmMember a) {
        return ByteBuffer.allocate(12).putLong(a.getMemberID()).putInt(a.getAlarmValue()).array();
    }
}
