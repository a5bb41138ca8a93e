package io.etcdj.server.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.CompactionRequest;
import io.etcdj.api.etcdserverpb.Compare;
import io.etcdj.api.etcdserverpb.DeleteRangeRequest;
import io.etcdj.api.etcdserverpb.HashKVRequest;
import io.etcdj.api.etcdserverpb.LeaseGrantRequest;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.api.etcdserverpb.RequestOp;
import io.etcdj.api.etcdserverpb.TxnRequest;
import io.etcdj.harness.EtcdClusterExtension;
import io.etcdj.harness.EtcdProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * KV requests against the real etcd 3.4 and ours, responses compared field by field (see
 * {@link ResponseNormalizer} for what is normalised). Both servers run with the same small limits so the
 * limit errors can be compared too. Keys of each test live under the test's name; only
 * {@link #rangeFromKey} uses a '~' prefix, which sorts after all others.
 */
class DifferentialKvIT {
    private static final String[] LIMITS = {"--max-txn-ops=8", "--max-request-bytes=16384"};

    @RegisterExtension
    static final EtcdClusterExtension SERVERS =
            EtcdClusterExtension.of(EtcdProcess.realEtcd(LIMITS), EtcdProcess.ours(LIMITS));
    private static Differential diff;

    @BeforeAll
    static void connect() {
        diff = Differential.connect(SERVERS.member(0), SERVERS.member(1));
    }

    @AfterAll
    static void disconnect() throws InterruptedException {
        diff.close();
    }

    @BeforeEach
    void scenario(TestInfo test) {
        diff.startScenario(test.getTestMethod().orElseThrow().getName().equals("rangeFromKey") ? "~fromkey" : test.getDisplayName());
    }

    private static ByteString k(String name) {
        return diff.key(name);
    }

    private static ByteString v(String value) {
        return ByteString.copyFromUtf8(value);
    }

    /** The key after every key with this prefix: etcd's prefix range end. */
    private static ByteString prefixEnd(ByteString prefix) {
        byte[] b = prefix.toByteArray();
        b[b.length - 1]++;
        return ByteString.copyFrom(b);
    }

    private static PutRequest put(String key, String value) {
        return PutRequest.newBuilder().setKey(k(key)).setValue(v(value)).build();
    }

    /** a(1) b(2) b(3) c(4) d/x(5) d/y(6) a(7): revisions relative to the scenario start. */
    private static void writeSampleKeys() {
        String[][] puts = {{"a", "1"}, {"b", "2"}, {"b", "22"}, {"c", "3"}, {"d/x", "4"}, {"d/y", "5"}, {"a", "0"}};
        for (String[] p : puts) {
            diff.sameOk("put " + p[0], s -> s.grpc().kv().put(put(p[0], p[1])));
        }
    }

    private static RangeRequest.Builder all() {
        return RangeRequest.newBuilder().setKey(k("")).setRangeEnd(prefixEnd(k("")));
    }

    @Test
    void rangeSingleKeyPrefixAndExplicitEnd() {
        writeSampleKeys();
        diff.sameOk("single key", s -> s.grpc().kv().range(RangeRequest.newBuilder().setKey(k("b")).build()));
        diff.sameOk("missing key", s -> s.grpc().kv().range(RangeRequest.newBuilder().setKey(k("zz")).build()));
        diff.sameOk("prefix d/",
                s -> s.grpc().kv().range(RangeRequest.newBuilder().setKey(k("d/")).setRangeEnd(prefixEnd(k("d/"))).build()));
        diff.sameOk("range [b, d/y)", s -> s.grpc().kv().range(RangeRequest.newBuilder().setKey(k("b")).setRangeEnd(k("d/y")).build()));
        diff.sameOk("range end before key", s -> s.grpc().kv().range(RangeRequest.newBuilder().setKey(k("c")).setRangeEnd(k("a")).build()));
        diff.sameOk("serializable", s -> s.grpc().kv().range(all().setSerializable(true).build()));
    }

    @Test
    void rangeFromKey() {
        writeSampleKeys();
        diff.sameOk("from key c", s -> s.grpc().kv().range(RangeRequest.newBuilder().setKey(k("c")).setRangeEnd(v("\0")).build()));
        diff.sameOk("from key c, limit 1",
                s -> s.grpc().kv().range(RangeRequest.newBuilder().setKey(k("c")).setRangeEnd(v("\0")).setLimit(1).build()));
        diff.sameOk("delete from key d/y", s -> s.grpc().kv().deleteRange(DeleteRangeRequest.newBuilder().setKey(k("d/y"))
                .setRangeEnd(v("\0")).setPrevKv(true).build()));
        diff.sameOk("from key a after the delete",
                s -> s.grpc().kv().range(RangeRequest.newBuilder().setKey(k("a")).setRangeEnd(v("\0")).build()));
    }

    @Test
    void rangeLimitMoreAndCount() {
        writeSampleKeys();
        for (long limit : new long[] {1, 2, 5, 6, 100, 0}) {
            diff.sameOk("limit " + limit, s -> s.grpc().kv().range(all().setLimit(limit).build()));
        }
        diff.sameOk("limit with descending key sort", s -> s.grpc().kv().range(all().setLimit(2)
                .setSortOrder(RangeRequest.SortOrder.DESCEND).build()));
        diff.sameOk("negative limit means no limit", s -> s.grpc().kv().range(all().setLimit(-1).build()));
    }

    @Test
    void rangeAtRevision() {
        writeSampleKeys();
        for (long delta = 1; delta <= 7; delta++) {
            long d = delta;
            diff.sameOk("all at base+" + d, s -> s.grpc().kv().range(all().setRevision(Differential.rev(s, d)).build()));
        }
        diff.sameOk("single key at base+2", s -> s.grpc().kv().range(RangeRequest.newBuilder().setKey(k("b"))
                .setRevision(Differential.rev(s, 2)).build()));
    }

    @Test
    void rangeSortedByEveryTargetInEveryOrder() {
        writeSampleKeys();
        for (RangeRequest.SortOrder order : new RangeRequest.SortOrder[] {RangeRequest.SortOrder.NONE,
                RangeRequest.SortOrder.ASCEND, RangeRequest.SortOrder.DESCEND}) {
            for (RangeRequest.SortTarget target : new RangeRequest.SortTarget[] {RangeRequest.SortTarget.KEY,
                    RangeRequest.SortTarget.VERSION, RangeRequest.SortTarget.CREATE, RangeRequest.SortTarget.MOD,
                    RangeRequest.SortTarget.VALUE}) {
                diff.sameOk("sort " + order + " by " + target, s -> s.grpc().kv().range(all()
                        .setSortOrder(order).setSortTarget(target).build()));
                if (order != RangeRequest.SortOrder.NONE || target == RangeRequest.SortTarget.KEY) {
                    diff.sameOk("sort " + order + " by " + target + ", limit 3", s -> s.grpc().kv().range(all()
                            .setSortOrder(order).setSortTarget(target).setLimit(3).build()));
                }
            }
        }
    }

    /** etcd fetches limit+1 keys in key order and only then sorts when the order is NONE (the default). */
    @Test
    void rangeSortTargetWithoutOrderLimitsBeforeSorting() {
        writeSampleKeys();
        for (RangeRequest.SortTarget target : new RangeRequest.SortTarget[] {RangeRequest.SortTarget.VERSION,
                RangeRequest.SortTarget.CREATE, RangeRequest.SortTarget.MOD, RangeRequest.SortTarget.VALUE}) {
            diff.sameOk("sort NONE by " + target + ", limit 3", s -> s.grpc().kv().range(all()
                    .setSortTarget(target).setLimit(3).build()));
        }
    }

    @Test
    void rangeKeysOnlyAndCountOnly() {
        writeSampleKeys();
        diff.sameOk("keys only", s -> s.grpc().kv().range(all().setKeysOnly(true).build()));
        diff.sameOk("count only", s -> s.grpc().kv().range(all().setCountOnly(true).build()));
        diff.sameOk("count only, limit 2", s -> s.grpc().kv().range(all().setCountOnly(true).setLimit(2).build()));
        diff.sameOk("keys only and count only", s -> s.grpc().kv().range(all().setCountOnly(true).setKeysOnly(true).build()));
    }

    @Test
    void rangeFilteredByModAndCreateRevision() {
        writeSampleKeys();
        diff.sameOk("min mod 3", s -> s.grpc().kv().range(all().setMinModRevision(Differential.rev(s, 3)).build()));
        diff.sameOk("max mod 4", s -> s.grpc().kv().range(all().setMaxModRevision(Differential.rev(s, 4)).build()));
        diff.sameOk("min create 2", s -> s.grpc().kv().range(all().setMinCreateRevision(Differential.rev(s, 2)).build()));
        diff.sameOk("max create 4", s -> s.grpc().kv().range(all().setMaxCreateRevision(Differential.rev(s, 4)).build()));
        diff.sameOk("min/max mod with limit", s -> s.grpc().kv().range(all().setMinModRevision(Differential.rev(s, 2))
                .setMaxModRevision(Differential.rev(s, 6)).setLimit(2).build()));
        diff.sameOk("min create with count only", s -> s.grpc().kv().range(all().setMinCreateRevision(Differential.rev(s, 4))
                .setCountOnly(true).build()));
    }

    @Test
    void putFlags() {
        diff.sameOk("put new with prev_kv", s -> s.grpc().kv().put(put("k", "v1").toBuilder().setPrevKv(true).build()));
        diff.sameOk("overwrite with prev_kv", s -> s.grpc().kv().put(put("k", "v2").toBuilder().setPrevKv(true).build()));
        diff.sameOk("ignore_value keeps the value", s -> s.grpc().kv().put(PutRequest.newBuilder().setKey(k("k"))
                .setIgnoreValue(true).setPrevKv(true).build()));
        diff.sameOk("after ignore_value", s -> s.grpc().kv().range(RangeRequest.newBuilder().setKey(k("k")).build()));
        diff.sameError("ignore_value on a missing key", s -> s.grpc().kv().put(PutRequest.newBuilder().setKey(k("missing"))
                .setIgnoreValue(true).build()));
        diff.sameError("ignore_value with a value", s -> s.grpc().kv().put(put("k", "x").toBuilder().setIgnoreValue(true).build()));

        long leaseId = 0x1000_0001L;
        diff.sameOk("grant", s -> s.grpc().lease().leaseGrant(LeaseGrantRequest.newBuilder().setID(leaseId).setTTL(600).build()));
        diff.sameOk("put with lease", s -> s.grpc().kv().put(put("leased", "v").toBuilder().setLease(leaseId).build()));
        diff.sameOk("ignore_lease keeps the lease", s -> s.grpc().kv().put(put("leased", "v2").toBuilder().setIgnoreLease(true)
                .setPrevKv(true).build()));
        diff.sameOk("after ignore_lease", s -> s.grpc().kv().range(RangeRequest.newBuilder().setKey(k("leased")).build()));
        diff.sameError("ignore_lease with a lease", s -> s.grpc().kv().put(put("leased", "v3").toBuilder().setIgnoreLease(true)
                .setLease(leaseId).build()));
        diff.sameError("ignore_lease on a missing key",
                s -> s.grpc().kv().put(put("missing", "v").toBuilder().setIgnoreLease(true).build()));
        diff.sameOk("plain put drops the lease", s -> s.grpc().kv().put(put("leased", "v4").toBuilder().setPrevKv(true).build()));
        diff.sameError("put with unknown lease", s -> s.grpc().kv().put(put("k", "v").toBuilder().setLease(0x1000_0002L).build()));
        diff.sameOk("final", s -> s.grpc().kv().range(all().build()));
    }

    @Test
    void deleteRangeWithPrevKv() {
        writeSampleKeys();
        diff.sameOk("delete missing",
                s -> s.grpc().kv().deleteRange(DeleteRangeRequest.newBuilder().setKey(k("zz")).setPrevKv(true).build()));
        diff.sameOk("delete one with prev_kv",
                s -> s.grpc().kv().deleteRange(DeleteRangeRequest.newBuilder().setKey(k("a")).setPrevKv(true).build()));
        diff.sameOk("delete prefix with prev_kv", s -> s.grpc().kv().deleteRange(DeleteRangeRequest.newBuilder().setKey(k("d/"))
                .setRangeEnd(prefixEnd(k("d/"))).setPrevKv(true).build()));
        diff.sameOk("delete range without prev_kv", s -> s.grpc().kv().deleteRange(DeleteRangeRequest.newBuilder().setKey(k("b"))
                .setRangeEnd(k("d")).build()));
        diff.sameOk("all gone", s -> s.grpc().kv().range(all().build()));
        diff.sameOk("deleted key's history is kept", s -> s.grpc().kv().range(all().setRevision(Differential.rev(s, 7)).build()));
    }

    private static Compare cmp(String key, Compare.CompareTarget target, Compare.CompareResult result, Compare.Builder value) {
        return value.setKey(k(key)).setTarget(target).setResult(result).build();
    }

    private static RequestOp getOp(String key) {
        return RequestOp.newBuilder().setRequestRange(RangeRequest.newBuilder().setKey(k(key))).build();
    }

    private static RequestOp putOp(String key, String value) {
        return RequestOp.newBuilder().setRequestPut(put(key, value)).build();
    }

    @Test
    void txnComparesOnEveryTarget() {
        long leaseId = 0x1000_0011L;
        diff.sameOk("grant", s -> s.grpc().lease().leaseGrant(LeaseGrantRequest.newBuilder().setID(leaseId).setTTL(600).build()));
        diff.sameOk("put k", s -> s.grpc().kv().put(put("k", "m")));
        diff.sameOk("put k again", s -> s.grpc().kv().put(put("k", "m").toBuilder().setLease(leaseId).build()));
        for (Compare.CompareResult result : new Compare.CompareResult[] {Compare.CompareResult.EQUAL,
                Compare.CompareResult.NOT_EQUAL, Compare.CompareResult.GREATER, Compare.CompareResult.LESS}) {
            Compare[] compares = {
                cmp("k", Compare.CompareTarget.VERSION, result, Compare.newBuilder().setVersion(2)),
                cmp("k", Compare.CompareTarget.VALUE, result, Compare.newBuilder().setValue(v("m"))),
                cmp("k", Compare.CompareTarget.VALUE, result, Compare.newBuilder().setValue(v("a"))),
                cmp("k", Compare.CompareTarget.LEASE, result, Compare.newBuilder().setLease(leaseId)),
                cmp("missing", Compare.CompareTarget.VERSION, result, Compare.newBuilder().setVersion(0)),
                cmp("missing", Compare.CompareTarget.VALUE, result, Compare.newBuilder().setValue(v(""))),
                cmp("missing", Compare.CompareTarget.LEASE, result, Compare.newBuilder().setLease(0)),
                cmp("missing", Compare.CompareTarget.CREATE, result, Compare.newBuilder().setCreateRevision(0)),
            };
            for (Compare c : compares) {
                diff.sameOk("txn " + c.getTarget() + " " + result + " on " + c.getKey().toStringUtf8(), s -> s.grpc().kv().txn(
                        TxnRequest.newBuilder().addCompare(c).addSuccess(getOp("k")).addFailure(getOp("missing")).build()));
            }
            // create/mod revisions differ per server, so the compared value is built per side
            for (Compare.CompareTarget target : new Compare.CompareTarget[] {Compare.CompareTarget.CREATE, Compare.CompareTarget.MOD}) {
                diff.sameOk("txn " + target + " " + result, s -> s.grpc().kv().txn(TxnRequest.newBuilder()
                        .addCompare(cmp("k", target, result, target == Compare.CompareTarget.CREATE
                                ? Compare.newBuilder().setCreateRevision(Differential.rev(s, 2))
                                : Compare.newBuilder().setModRevision(Differential.rev(s, 2))))
                        .addSuccess(getOp("k")).build()));
            }
        }
        diff.sameOk("compare over a range", s -> s.grpc().kv().txn(TxnRequest.newBuilder()
                .addCompare(cmp("", Compare.CompareTarget.VERSION, Compare.CompareResult.GREATER, Compare.newBuilder().setVersion(0))
                        .toBuilder().setRangeEnd(prefixEnd(k(""))).build())
                .addSuccess(putOp("ranged", "yes")).build()));
        diff.sameOk("empty txn", s -> s.grpc().kv().txn(TxnRequest.getDefaultInstance()));
        diff.sameOk("final", s -> s.grpc().kv().range(all().build()));
    }

    @Test
    void txnReadBeforeTheFirstWriteSeesTheOldRevision() {
        diff.sameOk("put a", s -> s.grpc().kv().put(put("a", "1")));
        diff.sameOk("get, put, get, delete", s -> s.grpc().kv().txn(TxnRequest.newBuilder()
                .addSuccess(getOp("a")).addSuccess(putOp("b", "2")).addSuccess(getOp("b"))
                .addSuccess(RequestOp.newBuilder().setRequestDeleteRange(DeleteRangeRequest.newBuilder().setKey(k("a"))))
                .build()));
    }

    @Test
    void txnWithWritesAndReads() {
        diff.sameOk("put a", s -> s.grpc().kv().put(put("a", "1")));
        diff.sameOk("writes then reads", s -> s.grpc().kv().txn(TxnRequest.newBuilder()
                .addSuccess(putOp("b", "2"))
                .addSuccess(getOp("b"))
                .addSuccess(RequestOp.newBuilder().setRequestDeleteRange(DeleteRangeRequest.newBuilder().setKey(k("a")).setPrevKv(true)))
                .build()));
        diff.sameOk("put with prev_kv in txn", s -> s.grpc().kv().txn(TxnRequest.newBuilder()
                .addSuccess(RequestOp.newBuilder().setRequestPut(put("b", "22").toBuilder().setPrevKv(true))).build()));
        diff.sameOk("final", s -> s.grpc().kv().range(all().build()));
    }

    @Test
    void nestedTxn() {
        diff.sameOk("put a", s -> s.grpc().kv().put(put("a", "1")));
        TxnRequest nested = TxnRequest.newBuilder()
                .addCompare(cmp("a", Compare.CompareTarget.VALUE, Compare.CompareResult.EQUAL, Compare.newBuilder().setValue(v("1"))))
                .addSuccess(putOp("n", "inner"))
                .addSuccess(getOp("n"))
                .addFailure(getOp("a"))
                .build();
        diff.sameOk("nested txn after a write", s -> s.grpc().kv().txn(TxnRequest.newBuilder()
                .addSuccess(putOp("b", "2"))
                .addSuccess(RequestOp.newBuilder().setRequestTxn(nested)).build()));
        diff.sameOk("final", s -> s.grpc().kv().range(all().build()));
    }

    @Test
    void txnErrors() {
        diff.sameError("duplicate put", s -> s.grpc().kv().txn(TxnRequest.newBuilder()
                .addSuccess(putOp("a", "1")).addSuccess(putOp("a", "2")).build()));
        diff.sameError("put inside a deleted range", s -> s.grpc().kv().txn(TxnRequest.newBuilder()
                .addSuccess(putOp("r/1", "1"))
                .addSuccess(RequestOp.newBuilder().setRequestDeleteRange(DeleteRangeRequest.newBuilder().setKey(k("r/"))
                        .setRangeEnd(prefixEnd(k("r/")))))
                .build()));
        diff.sameOk("same key in success and failure is allowed", s -> s.grpc().kv().txn(TxnRequest.newBuilder()
                .addSuccess(putOp("a", "1")).addFailure(putOp("a", "2")).build()));
        diff.sameError("duplicate across a nested txn", s -> s.grpc().kv().txn(TxnRequest.newBuilder()
                .addSuccess(putOp("b", "1"))
                .addSuccess(RequestOp.newBuilder().setRequestTxn(TxnRequest.newBuilder().addSuccess(putOp("b", "2"))))
                .build()));
        TxnRequest.Builder many = TxnRequest.newBuilder();
        for (int i = 0; i < 9; i++) {
            many.addSuccess(putOp("many/" + i, "v"));
        }
        diff.sameError("9 ops with --max-txn-ops=8", s -> s.grpc().kv().txn(many.build()));
        TxnRequest.Builder eight = TxnRequest.newBuilder();
        for (int i = 0; i < 8; i++) {
            eight.addSuccess(putOp("eight/" + i, "v"));
        }
        diff.sameOk("8 ops", s -> s.grpc().kv().txn(eight.build()));
        TxnRequest.Builder compares = TxnRequest.newBuilder();
        for (int i = 0; i < 9; i++) {
            compares.addCompare(cmp("c" + i, Compare.CompareTarget.VERSION, Compare.CompareResult.EQUAL, Compare.newBuilder()));
        }
        diff.sameError("9 compares", s -> s.grpc().kv().txn(compares.build()));
        diff.sameError("empty key in a txn put", s -> s.grpc().kv().txn(TxnRequest.newBuilder()
                .addSuccess(RequestOp.newBuilder().setRequestPut(PutRequest.newBuilder().setValue(v("v")))).build()));
        diff.sameOk("final", s -> s.grpc().kv().range(all().build()));
    }

    @Test
    void requestTooLarge() {
        String big = "x".repeat(20_000);
        diff.sameError("put larger than --max-request-bytes", s -> s.grpc().kv().put(put("big", big)));
        TxnRequest.Builder txn = TxnRequest.newBuilder();
        for (int i = 0; i < 4; i++) {
            txn.addSuccess(putOp("t" + i, "y".repeat(5000)));
        }
        diff.sameError("txn larger than --max-request-bytes", s -> s.grpc().kv().txn(txn.build()));
        diff.sameOk("just under the limit", s -> s.grpc().kv().put(put("fits", "z".repeat(15_000))));
        // beyond the transport limit (--max-request-bytes + 512 KiB) the gRPC library rejects the message; the
        // description is the library's own text (grpc-go vs grpc-java), so only the code is compared
        diff.sameCode("far beyond the gRPC limit", s -> s.grpc().kv().put(put("huge", "h".repeat(2 << 20))));
    }

    @Test
    void emptyKey() {
        diff.sameError("put empty key", s -> s.grpc().kv().put(PutRequest.newBuilder().setValue(v("v")).build()));
        diff.sameError("range empty key", s -> s.grpc().kv().range(RangeRequest.getDefaultInstance()));
        diff.sameError("delete empty key", s -> s.grpc().kv().deleteRange(DeleteRangeRequest.getDefaultInstance()));
        diff.sameOk("empty value is fine", s -> s.grpc().kv().put(put("e", "")));
        diff.sameOk("read it", s -> s.grpc().kv().range(RangeRequest.newBuilder().setKey(k("e")).build()));
    }

    @Test
    void compactedAndFutureRevisions() {
        writeSampleKeys();
        diff.sameError("future revision", s -> s.grpc().kv().range(all().setRevision(Differential.rev(s, 100)).build()));
        diff.sameOk("compact at base+4", s -> s.grpc().kv().compact(CompactionRequest.newBuilder()
                .setRevision(Differential.rev(s, 4)).setPhysical(true).build()));
        diff.sameError("read below the compaction", s -> s.grpc().kv().range(all().setRevision(Differential.rev(s, 3)).build()));
        diff.sameOk("read at the compaction", s -> s.grpc().kv().range(all().setRevision(Differential.rev(s, 4)).build()));
        diff.sameError("compact again at the same revision", s -> s.grpc().kv().compact(CompactionRequest.newBuilder()
                .setRevision(Differential.rev(s, 4)).build()));
        diff.sameError("compact in the future", s -> s.grpc().kv().compact(CompactionRequest.newBuilder()
                .setRevision(Differential.rev(s, 100)).build()));
        diff.sameError("txn reading a compacted revision", s -> s.grpc().kv().txn(TxnRequest.newBuilder()
                .addSuccess(RequestOp.newBuilder().setRequestRange(all().setRevision(Differential.rev(s, 2)))).build()));
        // the hash covers the storage engine's own encoding, so only the compaction point is compared;
        // hash_revision is a 3.6 field that 3.4 does not send
        diff.sameOk("hash kv after the compaction", s -> s.grpc().maintenance().hashKV(HashKVRequest.getDefaultInstance())
                .toBuilder().clearHash().clearHashRevision().build());
        String current = diff.sameOk("current values survive", s -> s.grpc().kv().range(all().build()));
        assertTrue(current.contains("\"count\" : \"5\""), current);
    }
}
