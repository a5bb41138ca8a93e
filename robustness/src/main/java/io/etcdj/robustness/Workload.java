package io.etcdj.robustness;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.Compare;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.api.etcdserverpb.PutResponse;
import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.api.etcdserverpb.RangeResponse;
import io.etcdj.api.etcdserverpb.RequestOp;
import io.etcdj.api.etcdserverpb.TxnRequest;
import io.etcdj.api.etcdserverpb.TxnResponse;
import io.etcdj.robustness.Op.Kind;
import io.etcdj.robustness.Op.Outcome;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Clients on a few keys: linearizable reads, writes of unique values and compare-and-set, each
 * client through one member (spread over all members), one operation at a time, every operation
 * recorded with its invocation and completion. A failed read has no effect and is dropped; a
 * write or CAS that times out or fails without a definite answer has an unknown outcome.
 */
final class Workload {
    static final long OP_TIMEOUT_MILLIS = 2000;

    private final Cluster cluster;
    private final List<String> keys;
    private final int clients;
    private final long seed;
    /** Serializable reads through the members listed here: the negative control (stale reads). */
    private final List<String> staleReadMembers;
    private final List<Op> history = Collections.synchronizedList(new ArrayList<>());
    private final AtomicInteger ids = new AtomicInteger();
    private final AtomicBoolean running = new AtomicBoolean(true);
    final List<String> revisionViolations = Collections.synchronizedList(new ArrayList<>());

    Workload(Cluster cluster, List<String> keys, int clients, long seed, List<String> staleReadMembers) {
        this.cluster = cluster;
        this.keys = keys;
        this.clients = clients;
        this.seed = seed;
        this.staleReadMembers = staleReadMembers;
    }

    List<Thread> start() {
        List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            int client = c;
            Thread t = new Thread(() -> runClient(client), "client-" + c);
            t.setDaemon(true);
            t.start();
            threads.add(t);
        }
        return threads;
    }

    void stop() {
        running.set(false);
    }

    List<Op> history() {
        synchronized (history) {
            return new ArrayList<>(history);
        }
    }

    private void runClient(int client) {
        Random rnd = new Random(seed * 31 + client);
        MemberProcess member = cluster.members().get(client % cluster.members().size());
        Map<String, String> lastSeen = new HashMap<>();
        long lastRevision = 0;
        for (int n = 0; running.get(); n++) {
            String key = keys.get(rnd.nextInt(keys.size()));
            int dice = rnd.nextInt(100);
            Op op;
            if (dice < 45) {
                op = read(client, member, key);
                if (op.outcome() == Outcome.OK) {
                    lastSeen.put(key, op.value());
                }
            } else if (dice < 80) {
                op = write(client, member, key, "c" + client + "-" + n);
            } else {
                op = cas(client, member, key, lastSeen.get(key), "c" + client + "-" + n);
            }
            if (op.kind() == Kind.READ && op.outcome() == Outcome.UNKNOWN) {
                pause(50);
                continue;
            }
            history.add(op);
            if (op.outcome() != Outcome.UNKNOWN) {
                if (op.revision() < lastRevision && !staleReadMembers.contains(member.name)) {
                    revisionViolations.add("client " + client + " saw revision " + op.revision() + " after " + lastRevision
                            + ": " + op);
                }
                lastRevision = Math.max(lastRevision, op.revision());
            } else {
                cluster.reconnect(member);
                pause(50);
            }
        }
    }

    /** A final linearizable read of every key through every member, after the faults. */
    void finalReads() {
        for (MemberProcess m : cluster.members()) {
            for (String key : keys) {
                Op op = read(-1, m, key);
                if (op.outcome() == Outcome.OK) {
                    history.add(op);
                }
            }
        }
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private Op read(int client, MemberProcess m, String key) {
        long start = System.nanoTime();
        boolean stale = staleReadMembers.contains(m.name);
        try {
            RangeResponse r = cluster.kv(m, OP_TIMEOUT_MILLIS).range(RangeRequest.newBuilder()
                    .setKey(ByteString.copyFromUtf8(key)).setSerializable(stale).build());
            String v = r.getCount() == 0 ? null : r.getKvs(0).getValue().toStringUtf8();
            return new Op(ids.getAndIncrement(), client, key, Kind.READ, v, null, start, System.nanoTime(),
                    Outcome.OK, r.getHeader().getRevision(), m.name);
        } catch (RuntimeException e) {
            return new Op(ids.getAndIncrement(), client, key, Kind.READ, null, null, start, Long.MAX_VALUE,
                    Outcome.UNKNOWN, 0, m.name);
        }
    }

    private Op write(int client, MemberProcess m, String key, String value) {
        long start = System.nanoTime();
        try {
            PutResponse r = cluster.kv(m, OP_TIMEOUT_MILLIS).put(PutRequest.newBuilder()
                    .setKey(ByteString.copyFromUtf8(key)).setValue(ByteString.copyFromUtf8(value)).build());
            return new Op(ids.getAndIncrement(), client, key, Kind.WRITE, value, null, start, System.nanoTime(),
                    Outcome.OK, r.getHeader().getRevision(), m.name);
        } catch (RuntimeException e) {
            return new Op(ids.getAndIncrement(), client, key, Kind.WRITE, value, null, start, Long.MAX_VALUE,
                    Outcome.UNKNOWN, 0, m.name);
        }
    }

    private Op cas(int client, MemberProcess m, String key, String expected, String value) {
        long start = System.nanoTime();
        ByteString k = ByteString.copyFromUtf8(key);
        Compare cmp = expected == null
                ? Compare.newBuilder().setKey(k).setTarget(Compare.CompareTarget.VERSION)
                        .setResult(Compare.CompareResult.EQUAL).setVersion(0).build()
                : Compare.newBuilder().setKey(k).setTarget(Compare.CompareTarget.VALUE)
                        .setResult(Compare.CompareResult.EQUAL).setValue(ByteString.copyFromUtf8(expected)).build();
        TxnRequest txn = TxnRequest.newBuilder().addCompare(cmp).addSuccess(RequestOp.newBuilder()
                .setRequestPut(PutRequest.newBuilder().setKey(k).setValue(ByteString.copyFromUtf8(value)))).build();
        try {
            TxnResponse r = cluster.kv(m, OP_TIMEOUT_MILLIS).txn(txn);
            return new Op(ids.getAndIncrement(), client, key, Kind.CAS, value, expected, start, System.nanoTime(),
                    r.getSucceeded() ? Outcome.OK : Outcome.FAILED, r.getHeader().getRevision(), m.name);
        } catch (RuntimeException e) {
            return new Op(ids.getAndIncrement(), client, key, Kind.CAS, value, expected, start, Long.MAX_VALUE,
                    Outcome.UNKNOWN, 0, m.name);
        }
    }
}
