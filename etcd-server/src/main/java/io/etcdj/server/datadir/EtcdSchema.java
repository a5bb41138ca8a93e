package io.etcdj.server.datadir;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import io.etcdj.api.etcdserverpb.AlarmMember;
import io.etcdj.api.etcdserverpb.Member;
import io.etcdj.cli.GoJsonString;
import io.etcdj.server.backend.Bucket;
import io.etcdj.server.lease.Lease;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * How a real etcd (3.4 to 3.6) lays out its backend file, and how each record differs from ours.
 * Most buckets hold the same bytes in both (the key bucket, the auth buckets); the differences:
 * <ul>
 * <li>lease: etcd stores a {@code leasepb.Lease} (ID = 1, TTL = 2, RemainingTTL = 3, int64
 * varints), we store ID and TTL as two big-endian longs, and the checkpointed remaining TTL as a
 * third when one is set;</li>
 * <li>alarm: etcd's key is a serialized {@code AlarmMember}, ours the member ID and alarm type;</li>
 * <li>meta: etcd's compaction marks are 17-byte revisions (main, '_', sub), ours the main
 * revision as 8 bytes; etcd 3.5+ adds {@code confState}, 3.6 {@code storageVersion};</li>
 * <li>members, members_removed, cluster: membership, rebuilt by every restore (etcd's too).</li>
 * </ul>
 */
final class EtcdSchema {
    static final String KEY = "key";
    static final String META = "meta";
    static final String LEASE = "lease";
    static final String ALARM = "alarm";
    static final String AUTH = "auth";
    static final String AUTH_USERS = "authUsers";
    static final String AUTH_ROLES = "authRoles";
    static final String MEMBERS = "members";
    static final String MEMBERS_REMOVED = "members_removed";
    static final String CLUSTER = "cluster";

    /** Buckets whose bytes are the same in etcd's file and ours. */
    static final Map<String, Bucket> COPIED = Map.of(KEY, Bucket.KEY, AUTH, Bucket.AUTH,
            AUTH_USERS, Bucket.AUTH_USERS, AUTH_ROLES, Bucket.AUTH_ROLES);

    /** Keys of etcd's meta bucket. */
    static final String CONSISTENT_INDEX = "consistent_index";
    static final String TERM = "term";
    static final String SCHEDULED_COMPACT_REV = "scheduledCompactRev";
    static final String FINISHED_COMPACT_REV = "finishedCompactRev";
    static final String STORAGE_VERSION = "storageVersion";
    /** The newest storage schema this code knows: etcd 3.6's. */
    static final int[] NEWEST_STORAGE = {3, 6};

    private static final int REVISION_BYTES = 17;

    /** The value etcd's members_removed bucket holds for every removed member. */
    static final String REMOVED = "removed";

    private EtcdSchema() {
    }

    static boolean isKnownBucket(String name) {
        return COPIED.containsKey(name) || name.equals(META) || name.equals(LEASE) || name.equals(ALARM)
                || name.equals(MEMBERS) || name.equals(MEMBERS_REMOVED) || name.equals(CLUSTER);
    }

    static String knownBuckets() {
        return String.join(", ", KEY, META, LEASE, ALARM, AUTH, AUTH_USERS, AUTH_ROLES, MEMBERS, MEMBERS_REMOVED, CLUSTER);
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    /** The main revision of an etcd 17-byte revision (a compaction mark). */
    static long revisionMain(byte[] rev) throws DataDirException {
        if (rev.length != REVISION_BYTES || rev[8] != '_') {
            throw new DataDirException("meta bucket: compaction mark is not a revision (" + rev.length + " bytes)");
        }
        return ByteBuffer.wrap(rev).getLong(0);
    }

    static byte[] revision(long main) {
        return ByteBuffer.allocate(REVISION_BYTES).putLong(main).put((byte) '_').putLong(0).array();
    }

    /** Is {@code key} a key-bucket revision: 17 bytes (main, '_', sub), or 18 with a tombstone 't'? */
    static boolean isRevisionKey(byte[] key) {
        return (key.length == REVISION_BYTES || (key.length == REVISION_BYTES + 1 && key[REVISION_BYTES] == 't'))
                && key[8] == '_';
    }

    /** etcd's lease record (leasepb.Lease) to ours: ID, TTL and remaining TTL. */
    static byte[] leaseFromEtcd(byte[] key, byte[] value) throws DataDirException {
        long id = key.length == 8 ? ByteBuffer.wrap(key).getLong() : 0;
        long ttl = 0;
        long remaining = 0;
        try {
            CodedInputStream in = CodedInputStream.newInstance(value);
            for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
                switch (tag) {
                    case 8 -> id = in.readInt64();
                    case 16 -> ttl = in.readInt64();
                    case 24 -> remaining = in.readInt64();
                    default -> in.skipField(tag);
                }
            }
        } catch (IOException e) {
            throw new DataDirException("lease bucket: record of lease " + Long.toHexString(id) + " is corrupted: " + e.getMessage(), e);
        }
        if (key.length != 8 || ByteBuffer.wrap(key).getLong() != id) {
            throw new DataDirException("lease bucket: key does not match lease ID " + Long.toHexString(id));
        }
        return Lease.record(id, ttl, remaining);
    }

    /** Our lease record to etcd's leasepb.Lease (zero fields left out, as Go's encoder does). */
    static byte[] leaseToEtcd(byte[] ours) throws DataDirException {
        if (ours.length != 16 && ours.length != 24) {
            throw new DataDirException("lease bucket: record of " + ours.length + " bytes, expected 16 or 24");
        }
        long[] rec = Lease.parseRecord(ours);
        long id = rec[0];
        long ttl = rec[1];
        long remaining = rec[2];
        byte[] out = new byte[CodedOutputStream.computeInt64Size(1, id) + CodedOutputStream.computeInt64Size(2, ttl)
                + CodedOutputStream.computeInt64Size(3, remaining)];
        CodedOutputStream o = CodedOutputStream.newInstance(out);
        try {
            if (id != 0) {
                o.writeInt64(1, id);
            }
            if (ttl != 0) {
                o.writeInt64(2, ttl);
            }
            if (remaining != 0) {
                o.writeInt64(3, remaining);
            }
            o.flush();
        } catch (IOException e) {
            throw new IllegalStateException("the buffer was sized for both fields", e);
        }
        return Arrays.copyOf(out, o.getTotalBytesWritten());
    }

    /** etcd's alarm key (a serialized AlarmMember) to ours: member ID and alarm type. */
    static byte[] alarmFromEtcd(byte[] key) throws DataDirException {
        try {
            AlarmMember a = AlarmMember.parseFrom(key);
            return ByteBuffer.allocate(12).putLong(a.getMemberID()).putInt(a.getAlarmValue()).array();
        } catch (InvalidProtocolBufferException e) {
            throw new DataDirException("alarm bucket: corrupted alarm record: " + e.getMessage(), e);
        }
    }

    static byte[] alarmToEtcd(byte[] ours) throws DataDirException {
        if (ours.length != 12) {
            throw new DataDirException("alarm bucket: record of " + ours.length + " bytes, expected 12");
        }
        ByteBuffer b = ByteBuffer.wrap(ours);
        return AlarmMember.newBuilder().setMemberID(b.getLong()).setAlarmValue(b.getInt()).build().toByteArray();
    }

    /**
     * Our member record (an {@code etcdserverpb.Member}) as etcd's members bucket holds it: the key
     * is the ID in lower-case hex without padding (Go's {@code types.ID.String()}), the value the
     * JSON Go's encoder writes for etcd's {@code membership.Member}: {@code id} as a number,
     * {@code peerURLs} (null when none), {@code isLearner} only when set, {@code name} and
     * {@code clientURLs} only when not empty (omitempty).
     */
    static Map.Entry<byte[], byte[]> memberToEtcd(byte[] ours) throws DataDirException {
        Member m;
        try {
            m = Member.parseFrom(ours);
        } catch (InvalidProtocolBufferException e) {
            throw new DataDirException("members bucket: corrupted member record: " + e.getMessage(), e);
        }
        StringBuilder json = new StringBuilder("{\"id\":").append(Long.toUnsignedString(m.getID())).append(",\"peerURLs\":");
        goStrings(json, m.getPeerURLsList());
        if (m.getIsLearner()) {
            json.append(",\"isLearner\":true");
        }
        if (!m.getName().isEmpty()) {
            GoJsonString.append(json.append(",\"name\":"), m.getName());
        }
        if (m.getClientURLsCount() > 0) {
            goStrings(json.append(",\"clientURLs\":"), m.getClientURLsList());
        }
        json.append('}');
        return Map.entry(memberKey(m.getID()), json.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** etcd's members bucket key of member {@code id} (also the key of members_removed). */
    static byte[] memberKey(long id) {
        return ascii(Long.toHexString(id));
    }

    private static void goStrings(StringBuilder json, List<String> list) {
        if (list.isEmpty()) {
            json.append("null");
            return;
        }
        json.append('[');
        for (int i = 0; i < list.size(); i++) {
            if (i > 0) {
                json.append(',');
            }
            GoJsonString.append(json, list.get(i));
        }
        json.append(']');
    }

    /**
     * Refuses a storage version newer than etcd 3.6's; returns it when the file has one (etcd
     * 3.6 writes it; 3.4 and 3.5 do not).
     */
    static Optional<String> checkStorageVersion(byte[] value) throws DataDirException {
        if (value == null) {
            return Optional.empty();
        }
        String v = new String(value, StandardCharsets.US_ASCII);
        String[] parts = v.split("\\.");
        int major;
        int minor;
        try {
            major = Integer.parseInt(parts[0]);
            minor = parts.length > 1 ? Integer.parseInt(parts[1]) : 0;
        } catch (NumberFormatException e) {
            throw new DataDirException("meta bucket: invalid storage version \"" + v + "\"");
        }
        if (major > NEWEST_STORAGE[0] || (major == NEWEST_STORAGE[0] && minor > NEWEST_STORAGE[1])) {
            throw new DataDirException("snapshot storage version " + v + " is newer than the newest this etcdutl reads ("
                    + NEWEST_STORAGE[0] + "." + NEWEST_STORAGE[1] + ")");
        }
        return Optional.of(v);
    }
}
