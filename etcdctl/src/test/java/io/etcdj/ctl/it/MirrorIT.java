package io.etcdj.ctl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.DeleteRangeRequest;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.api.etcdserverpb.RequestOp;
import io.etcdj.api.etcdserverpb.TxnRequest;
import io.etcdj.api.mvccpb.KeyValue;
import io.etcdj.client.ClientConfig;
import io.etcdj.client.Endpoint;
import io.etcdj.client.EtcdClient;
import io.etcdj.ctl.RootCommand;
import io.etcdj.ctl.cli.EtcdctlApp;
import io.etcdj.ctl.printer.KeyRanges;
import io.etcdj.harness.Eventually;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** make-mirror from one real etcd to another: the base copy, then live puts and deletes. */
@ExtendWith(TwinEtcdExtension.class)
class MirrorIT {

    private static EtcdClient client(RealEtcd e) {
        return EtcdClient.connect(ClientConfig.builder().endpoints(List.of(Endpoint.parse(e.endpoint()))).build());
    }

    private static void put(EtcdClient c, String k, String v) {
        c.kv(s -> s.put(PutRequest.newBuilder()
                .setKey(ByteString.copyFromUtf8(k)).setValue(ByteString.copyFromUtf8(v))
                .build()));
    }

    private static Map<String, String> dump(EtcdClient c, String prefix) {
        Map<String, String> m = new TreeMap<>();
        RangeRequest req = RangeRequest.newBuilder().setKey(ByteString.copyFromUtf8(prefix))
                .setRangeEnd(KeyRanges.prefixEnd(ByteString.copyFromUtf8(prefix)))
                .build();
        for (KeyValue kv : c.kv(s -> s.range(req)).getKvsList()) {
            m.put(kv.getKey().toStringUtf8(), kv.getValue().toStringUtf8());
        }
        return m;
    }

    @Test
    void mirrorsBaseAndLaterChangesUnderANewPrefix(TwinEtcdExtension.Twins twins) throws Exception {
        try (EtcdClient src = client(twins.reference()); EtcdClient dst = client(twins.ours())) {
            put(src, "a/1", "one");
            put(src, "a/2", "two");
            put(src, "other", "not mirrored");
            Thread mirror = new Thread(() -> new EtcdctlApp(RootCommand::tree).run(new String[] {
                "--endpoints=" + twins.reference().endpoint(), "make-mirror", "--prefix=a/", "--dest-prefix=b/",
                twins.ours().endpoint()}, new PrintStream(new ByteArrayOutputStream()),
                    new PrintStream(new ByteArrayOutputStream()), new ByteArrayInputStream(new byte[0]), Map.of()));
            mirror.start();
            try {
                Map<String, String> base = Map.of("b/1", "one", "b/2", "two");
                awaitEquals(base, () -> dump(dst, "b/"));
                put(src, "a/3", "three");
                src.kv(s -> s.deleteRange(DeleteRangeRequest.newBuilder()
                        .setKey(ByteString.copyFromUtf8("a/1")).build()));
                awaitEquals(Map.of("b/2", "two", "b/3", "three"), () -> dump(dst, "b/"));
                assertEquals(Map.of(), dump(dst, "other"));
            } finally {
                mirror.interrupt();
                mirror.join(5000);
            }
        }
    }

    /**
     * etcdctl 3.6's --rev (no base copy: the changes from that revision on) and --max-txn-ops (one
     * source revision of three puts arrives as three destination transactions, three revisions).
     */
    @Test
    void startsAtARevisionAndSplitsTransactions(TwinEtcdExtension.Twins twins) throws Exception {
        try (EtcdClient src = client(twins.reference()); EtcdClient dst = client(twins.ours())) {
            put(src, "r/old", "before the start revision");
            long start = revision(src) + 1;
            Thread mirror = new Thread(() -> new EtcdctlApp(RootCommand::tree).run(new String[] {
                "--endpoints=" + twins.reference().endpoint(), "make-mirror", "--prefix=r/", "--rev=" + start,
                "--max-txn-ops=1", twins.ours().endpoint()}, new PrintStream(new ByteArrayOutputStream()),
                    new PrintStream(new ByteArrayOutputStream()), new ByteArrayInputStream(new byte[0]), Map.of()));
            mirror.start();
            try {
                put(src, "r/new", "1");
                awaitEquals(Map.of("r/new", "1"), () -> dump(dst, "r/"));
                long before = revision(dst);
                TxnRequest.Builder txn = TxnRequest.newBuilder();
                for (String k : List.of("r/t1", "r/t2", "r/t3")) {
                    txn.addSuccess(RequestOp.newBuilder().setRequestPut(
                            PutRequest.newBuilder().setKey(ByteString.copyFromUtf8(k))
                                    .setValue(ByteString.copyFromUtf8("t"))));
                }
                src.kv(s -> s.txn(txn.build()));
                awaitEquals(Map.of("r/new", "1", "r/t1", "t", "r/t2", "t", "r/t3", "t"), () -> dump(dst, "r/"));
                assertEquals(before + 3, revision(dst), "one transaction per operation");
            } finally {
                mirror.interrupt();
                mirror.join(5000);
            }
        }
    }

    private static long revision(EtcdClient c) {
        return c.kv(s -> s.range(RangeRequest.newBuilder().setKey(ByteString.copyFromUtf8("r/"))
                .build())).getHeader().getRevision();
    }

    @Test
    void rejectsBothDestinationPrefixFlagsLikeEtcdctl(TwinEtcdExtension.Twins twins) throws Exception {
        Differ differ = new Differ(twins);
        String[] args = {"make-mirror", "--dest-prefix=x", "--no-dest-prefix", twins.ours().endpoint()};
        Differ.Result expected = differ.reference("", args);
        Differ.Result actual = differ.ours("", args);
        assertEquals(expected.toString(), actual.toString());
        assertEquals(128, actual.code());
    }

    private static void awaitEquals(Map<String, String> expected, Supplier<Map<String, String>> actual)
            throws Exception {
        assertEquals(expected, Eventually.poll(Duration.ofSeconds(20), Duration.ofMillis(50), actual::get, expected::equals));
    }
}
