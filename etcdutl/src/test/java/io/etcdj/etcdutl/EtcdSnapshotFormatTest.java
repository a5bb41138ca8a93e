package io.etcdj.etcdutl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import io.etcdj.api.etcdserverpb.AlarmMember;
import io.etcdj.api.etcdserverpb.AlarmType;
import io.etcdj.api.mvccpb.KeyValue;
import io.etcdj.server.backend.Backend;
import io.etcdj.server.backend.Bucket;
import io.etcdj.server.backend.Bytes;
import io.etcdj.server.backend.MetaKeys;
import io.etcdj.server.backend.ReadTx;
import io.etcdj.server.bbolt.BboltReader;
import io.etcdj.server.bbolt.BboltWriter;
import java.io.ByteArrayOutputStream;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * etcd-format files (written here with the bbolt writer in etcd's layout) through etcdutl's
 * status, restore and export: each record converted and converted back, and every kind of bad
 * file refused with a message naming the problem and no data dir left behind.
 */
class EtcdSnapshotFormatTest {
    private static final long LEASE_ID = 0x45a3a20f3089470aL;

    @TempDir
    Path dir;

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static TreeMap<byte[], byte[]> entries() {
        return new TreeMap<>(Arrays::compareUnsigned);
    }

    private static byte[] rev(long main, boolean tombstone) {
        ByteBuffer bb = ByteBuffer.allocate(tombstone ? 18 : 17).putLong(main).put((byte) '_').putLong(0);
        if (tombstone) {
            bb.put((byte) 't');
        }
        return bb.array();
    }

    /** etcd's leasepb.Lease{ID, TTL}, as Go encodes it. */
    private static byte[] etcdLease(long id, long ttl) throws Exception {
        var out = new ByteArrayOutputStream();
        var o = CodedOutputStream.newInstance(out);
        o.writeInt64(1, id);
        o.writeInt64(2, ttl);
        o.flush();
        return out.toByteArray();
    }

    /** The buckets of a small etcd 3.5-like backend: keys over 4 revisions, a lease, an alarm, auth on. */
    private Map<String, TreeMap<byte[], byte[]>> etcdBuckets(int manyKeys) throws Exception {
        Map<String, TreeMap<byte[], byte[]>> buckets = new TreeMap<>();
        TreeMap<byte[], byte[]> alarm = entries();
        alarm.put(AlarmMember.newBuilder().setMemberID(42).setAlarm(AlarmType.NOSPACE).build().toByteArray(), new byte[0]);
        buckets.put("alarm", alarm);
        TreeMap<byte[], byte[]> auth = entries();
        auth.put(b("authEnabled"), new byte[] {1});
        auth.put(b("authRevision"), Bytes.longBytes(9));
        buckets.put("auth", auth);
        TreeMap<byte[], byte[]> users = entries();
        users.put(b("root"), new byte[] {10, 4, 'r', 'o', 'o', 't', 26, 4, 'r', 'o', 'o', 't'});
        buckets.put("authUsers", users);
        buckets.put("authRoles", entries());
        TreeMap<byte[], byte[]> key = entries();
        key.put(rev(2, false), KeyValue.newBuilder().setKey(ByteString.copyFromUtf8("a")).setValue(ByteString.copyFromUtf8("1"))
                .setCreateRevision(2).setModRevision(2).setVersion(1).build().toByteArray());
        key.put(rev(3, false), KeyValue.newBuilder().setKey(ByteString.copyFromUtf8("l")).setValue(ByteString.copyFromUtf8("x"))
                .setCreateRevision(3).setModRevision(3).setVersion(1).setLease(LEASE_ID).build().toByteArray());
        key.put(rev(4, true), KeyValue.newBuilder().setKey(ByteString.copyFromUtf8("a")).build().toByteArray());
        for (int i = 0; i < manyKeys; i++) {
            long r = 5 + i;
            key.put(rev(r, false), KeyValue.newBuilder().setKey(ByteString.copyFromUtf8("k" + i))
                    .setValue(ByteString.copyFrom(new byte[i % 50 == 0 ? 9000 : 40])).setCreateRevision(r).setModRevision(r)
                    .setVersion(1).build().toByteArray());
        }
        buckets.put("key", key);
        TreeMap<byte[], byte[]> lease = entries();
        lease.put(Bytes.longBytes(LEASE_ID), etcdLease(LEASE_ID, 600));
        buckets.put("lease", lease);
        TreeMap<byte[], byte[]> members = entries();
        members.put(b("2a"), b("{\"id\":42,\"peerURLs\":[\"http://127.0.0.1:1\"],\"name\":\"old\"}"));
        buckets.put("members", members);
        buckets.put("members_removed", entries());
        TreeMap<byte[], byte[]> meta = entries();
        meta.put(b("consistent_index"), Bytes.longBytes(77));
        meta.put(b("finishedCompactRev"), rev(2, false));
        meta.put(b("scheduledCompactRev"), rev(2, false));
        meta.put(b("term"), Bytes.longBytes(3));
        buckets.put("meta", meta);
        return buckets;
    }

    private Path write(String name, Map<String, TreeMap<byte[], byte[]>> buckets, boolean trailer) throws Exception {
        Path file = dir.resolve(name);
        try (BboltWriter w = BboltWriter.create(file, 4096)) {
            for (var bucket : buckets.entrySet()) {
                w.beginBucket(b(bucket.getKey()));
                for (var e : bucket.getValue().entrySet()) {
                    w.put(e.getKey(), e.getValue());
                }
                w.endBucket();
            }
            w.finish();
        }
        if (trailer) {
            Files.write(file, BackendFixture.sha256(Files.readAllBytes(file)), StandardOpenOption.APPEND);
        }
        return file;
    }

    private Run restore(Path file, Path dataDir, String... extra) {
        String[] args = Stream.concat(Stream.of("snapshot", "restore", file.toString(), "--data-dir", dataDir.toString(),
                "--name", "m1", "--initial-cluster", "m1=http://127.0.0.1:1", "--initial-advertise-peer-urls",
                "http://127.0.0.1:1"), Stream.of(extra)).toArray(String[]::new);
        return Run.of(args);
    }

    @Test
    void everyRecordIsConvertedInAndBackOut() throws Exception {
        Map<String, TreeMap<byte[], byte[]>> buckets = etcdBuckets(600);
        Path snapshot = write("etcd.db", buckets, true);
        Path data = dir.resolve("restored");
        Run r = restore(snapshot, data);
        assertEquals(0, r.code(), r.err());

        Path db = data.resolve("member/snap/db");
        try (Backend backend = Backend.open(db, 1L << 30); ReadTx tx = backend.beginRead()) {
            assertSameBucket(buckets.get("key"), tx, Bucket.KEY);
            assertSameBucket(buckets.get("auth"), tx, Bucket.AUTH);
            assertSameBucket(buckets.get("authUsers"), tx, Bucket.AUTH_USERS);
            byte[] lease = tx.get(Bucket.LEASE, Bytes.longBytes(LEASE_ID));
            assertArrayEquals(ByteBuffer.allocate(16).putLong(LEASE_ID).putLong(600).array(), lease);
            assertArrayEquals(Bytes.longBytes(2), tx.get(Bucket.META, MetaKeys.FINISHED_COMPACT_REV));
            assertArrayEquals(Bytes.longBytes(2), tx.get(Bucket.META, MetaKeys.SCHEDULED_COMPACT_REV));
            byte[][] alarm = new byte[1][];
            tx.forEach(Bucket.ALARM, null, null, (k, v) -> (alarm[0] = k) == null);
            assertArrayEquals(ByteBuffer.allocate(12).putLong(42).putInt(AlarmType.NOSPACE_VALUE).array(), alarm[0]);
            // the old member is gone: the restore's cluster replaced it
            tx.forEach(Bucket.MEMBERS, null, null, (k, v) -> {
                assertFalse(Arrays.equals(Bytes.longBytes(42), k), "old member kept");
                return true;
            });
        } finally {
            BackendFixture.deleteLockFile(db);
        }

        Path exported = dir.resolve("exported.db");
        Run e = Run.of("snapshot", "export", data.toString(), exported.toString());
        assertEquals(0, e.code(), e.err());
        assertEquals("Snapshot exported at " + exported, e.out().strip());
        Map<String, Map<String, String>> back = read(exported);
        assertEquals(Set.of("alarm", "auth", "authRoles", "authUsers", "key", "lease", "members",
                "members_removed", "meta"), back.keySet());
        for (String same : new String[] {"alarm", "auth", "authUsers", "key", "lease"}) {
            assertEquals(hex(buckets.get(same)), back.get(same), same);
        }
        assertEquals(hex(rev(2, false)), back.get("meta").get(hex(b("finishedCompactRev"))));
        assertEquals(hex(rev(2, false)), back.get("meta").get(hex(b("scheduledCompactRev"))));
        // the restored cluster's one member, as etcd's members bucket holds it: the ID in hex as the
        // key, Go's JSON of membership.Member as the value (no client URLs yet: omitted, as Go omits them)
        assertEquals(1, back.get("members").size(), back.get("members").toString());
        var member = back.get("members").entrySet().iterator().next();
        String key = new String(HexFormat.of().parseHex(member.getKey()), StandardCharsets.US_ASCII);
        String json = new String(HexFormat.of().parseHex(member.getValue()), StandardCharsets.UTF_8);
        Matcher m = Pattern.compile("\\{\"id\":(\\d+),\"peerURLs\":\\[\"http://127.0.0.1:1\"],\"name\":\"m1\"}")
                .matcher(json);
        assertTrue(m.matches(), json);
        assertEquals(Long.toHexString(Long.parseUnsignedLong(m.group(1))), key);
    }

    @Test
    void statusOfAnEtcdFileIsComputedOnItsBuckets() throws Exception {
        var buckets = etcdBuckets(0);
        buckets.get("meta").put(b("storageVersion"), b("3.6.0"));
        Path file = write("v36.db", buckets, true);
        Run r = Run.of("-w", "json", "snapshot", "status", file.toString());
        assertEquals(0, r.code(), r.err());
        long entries = buckets.values().stream().mapToLong(Map::size).sum();
        assertTrue(r.out().matches("\\{\"hash\":\\d+,\"revision\":4,\"totalKey\":" + entries + ",\"totalSize\":"
                + (Files.size(file) - 32) + ",\"version\":\"3.6.0\"}\\s*"), r.out());
    }

    @Test
    void aWrongHashTrailerIsRefusedWithEtcdsTextUnlessSkipped() throws Exception {
        Path file = write("badhash.db", etcdBuckets(0), true);
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.seek(f.length() - 1);
            f.write(0);
        }
        Path data = dir.resolve("d1");
        Run r = restore(file, data);
        assertEquals(1, r.code());
        assertTrue(r.error().matches("Error: expected sha256 \\[[0-9 ]+], got \\[[0-9 ]+]"), r.error());
        assertFalse(Files.exists(data), "no data dir after a failed restore");
        assertEquals(0, restore(file, data, "--skip-hash-check").code());
        assertTrue(Files.exists(data.resolve("member/snap/db")));
    }

    @Test
    void aTruncatedFileIsNamedAndLeavesAnEmptyDataDirEmpty() throws Exception {
        Path file = write("truncated.db", etcdBuckets(300), false);
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.setLength(f.length() / 2 / 4096 * 4096);
        }
        Path data = Files.createDirectory(dir.resolve("empty"));
        Run r = restore(file, data, "--skip-hash-check");
        assertEquals(1, r.code());
        assertTrue(r.error().startsWith("Error: cannot read etcd snapshot " + file + ": file is truncated"), r.error());
        try (Stream<Path> s = Files.list(data)) {
            assertEquals(0, s.count(), "the given data dir stays empty");
        }
        Run status = Run.of("snapshot", "status", file.toString());
        assertEquals(1, status.code());
        assertTrue(status.error().contains("file is truncated"), status.error());
    }

    @Test
    void corruptedMetaPagesAreRefused() throws Exception {
        Path file = write("meta.db", etcdBuckets(0), false);
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            for (long meta : new long[] {16 + 24, 4096 + 16 + 24}) {
                f.seek(meta);
                f.write(0x7f);
            }
        }
        Run r = restore(file, dir.resolve("d2"), "--skip-hash-check");
        assertEquals(1, r.code());
        assertTrue(r.error().contains("checksum error in meta page"), r.error());
        assertFalse(Files.exists(dir.resolve("d2")));
    }

    @Test
    void anUnknownBucketIsNamed() throws Exception {
        var buckets = etcdBuckets(0);
        buckets.put("zebra", entries());
        Path file = write("unknown.db", buckets, true);
        Run r = restore(file, dir.resolve("d3"));
        assertEquals(1, r.code());
        assertTrue(r.error().contains("unknown bucket \"zebra\""), r.error());
        assertFalse(Files.exists(dir.resolve("d3")));
    }

    @Test
    void aNewerStorageVersionIsRefused() throws Exception {
        var buckets = etcdBuckets(0);
        buckets.get("meta").put(b("storageVersion"), b("3.7.0"));
        Path file = write("v37.db", buckets, true);
        Run r = restore(file, dir.resolve("d4"));
        assertEquals(1, r.code());
        assertEquals("Error: snapshot storage version 3.7.0 is newer than the newest this etcdutl reads (3.6)", r.error());
        assertFalse(Files.exists(dir.resolve("d4")));
    }

    @Test
    void exportRefusesBadArgumentsAndLeavesNoPartialOutput() throws Exception {
        Run none = Run.of("snapshot", "export", "only-one");
        assertEquals(128, none.code());
        assertEquals("Error: snapshot export requires exactly two arguments: <source> <output>", none.error());
        Run format = Run.of("snapshot", "export", "a", "b", "--format", "zip");
        assertEquals(128, format.code());
        assertEquals("Error: unsupported --format \"zip\" (supported: etcd)", format.error());
        Path etcdFile = write("already.db", etcdBuckets(0), true);
        Path out = dir.resolve("out.db");
        Run already = Run.of("snapshot", "export", etcdFile.toString(), out.toString());
        assertEquals(1, already.code());
        assertTrue(already.error().contains("is already an etcd (bbolt) file"), already.error());
        Path ours = BackendFixture.snapshotOf(BackendFixture.backend(dir, 3), dir.resolve("ours.db"));
        try (RandomAccessFile f = new RandomAccessFile(ours.toFile(), "rw")) {
            f.seek(f.length() - 1);
            f.write(0);
        }
        Run badHash = Run.of("snapshot", "export", ours.toString(), out.toString());
        assertEquals(1, badHash.code());
        assertTrue(badHash.error().startsWith("Error: expected sha256 "), badHash.error());
        assertFalse(Files.exists(out));
        assertFalse(Files.exists(dir.resolve("out.db.part")));
    }

    private static void assertSameBucket(TreeMap<byte[], byte[]> expected, ReadTx tx, Bucket bucket) {
        Map<String, String> ours = new LinkedHashMap<>();
        tx.forEach(bucket, null, null, (k, v) -> ours.put(hex(k), hex(v)) == null);
        assertEquals(hex(expected), ours, bucket.dbName());
    }

    /** An exported file (trailer dropped) as bucket → (hex key → hex value). */
    private static Map<String, Map<String, String>> read(Path file) throws Exception {
        Map<String, Map<String, String>> out = new TreeMap<>();
        try (BboltReader r = BboltReader.open(file, Files.size(file) - 32)) {
            r.forEachTopLevel((name, header, bucket) -> {
                Map<String, String> entries = new LinkedHashMap<>();
                r.forEachInBucket(header, (k, v, nested) -> entries.put(hex(k), hex(v)));
                out.put(new String(name, StandardCharsets.UTF_8), entries);
            });
        }
        return out;
    }

    private static Map<String, String> hex(TreeMap<byte[], byte[]> entries) {
        Map<String, String> out = new LinkedHashMap<>();
        entries.forEach((k, v) -> out.put(hex(k), hex(v)));
        return out;
    }

    private static String hex(byte[] b) {
        return HexFormat.of().formatHex(b);
    }
}
