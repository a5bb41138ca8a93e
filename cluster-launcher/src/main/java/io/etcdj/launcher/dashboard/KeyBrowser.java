package io.etcdj.launcher.dashboard;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.DeleteRangeRequest;
import io.etcdj.api.etcdserverpb.DeleteRangeResponse;
import io.etcdj.api.etcdserverpb.KVGrpc;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.api.etcdserverpb.PutResponse;
import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.api.etcdserverpb.RangeResponse;
import io.etcdj.api.mvccpb.KeyValue;
import io.etcdj.cli.ExitCodes;
import io.etcdj.launcher.LauncherException;
import io.etcdj.launcher.client.MemberCallException;
import io.etcdj.launcher.client.MemberClient;
import io.grpc.StatusRuntimeException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The key browser's requests, over the members' KV service: list by prefix, get (at a revision),
 * a key's earlier versions, put and delete. Each goes to the leader if one answers, else to the
 * next member that runs; a member that cannot be reached is skipped, a refusal is reported.
 */
final class KeyBrowser {
    static final int LIST_LIMIT = 200;
    static final int VERSIONS_LIMIT = 20;
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    /** A key as the page shows it. */
    record Entry(String key, String value, boolean binary, long createRevision, long modRevision, long version,
            long lease) {
        static Entry of(KeyValue kv) {
            return new Entry(KeyText.show(kv.getKey()), KeyText.show(kv.getValue()), !KeyText.isText(kv.getValue()),
                    kv.getCreateRevision(), kv.getModRevision(), kv.getVersion(), kv.getLease());
        }
    }

    record Listing(String servedBy, long revision, long count, boolean more, List<Entry> keys) {}

    /** {@code kv} is null when the key does not exist at that revision. */
    record Lookup(String servedBy, long revision, Entry kv) {}

    /** Newest first; {@code note} says why the list stops early (compaction). */
    record Versions(String servedBy, List<Entry> versions, String note) {}

    record Written(String servedBy, long revision, long deleted) {}

    private final Endpoints endpoints;
    private final EventLog log;

    KeyBrowser(Endpoints endpoints, EventLog log) {
        this.endpoints = endpoints;
        this.log = log;
    }

    Listing list(String prefix) {
        ByteString p = ByteString.copyFromUtf8(prefix);
        RangeRequest req = RangeRequest.newBuilder()
                .setKey(p.isEmpty() ? ByteString.copyFrom(new byte[] {0}) : p)
                .setRangeEnd(KeyText.prefixEnd(p))
                .setLimit(LIST_LIMIT)
                .setSortOrder(RangeRequest.SortOrder.ASCEND).setSortTarget(RangeRequest.SortTarget.KEY)
                .build();
        return onAMember(kv -> {
            RangeResponse r = kv.stub().range(req);
            return new Listing(kv.name(), r.getHeader().getRevision(), r.getCount(), r.getMore(),
                    r.getKvsList().stream().map(Entry::of).toList());
        });
    }

    /** The key at {@code revision} (0: now). */
    Lookup get(String key, long revision) {
        requireKey(key);
        RangeRequest req = RangeRequest.newBuilder().setKey(ByteString.copyFromUtf8(key)).setRevision(revision).build();
        return onAMember(kv -> {
            RangeResponse r = kv.stub().range(req);
            return new Lookup(kv.name(), r.getHeader().getRevision(), r.getKvsCount() == 0 ? null : Entry.of(r.getKvs(0)));
        });
    }

    /**
     * The key's versions in its current life, newest first: each is read at the revision just
     * before the one that replaced it, back to its creation or the compaction point.
     */
    Versions versions(String key) {
        requireKey(key);
        ByteString k = ByteString.copyFromUtf8(key);
        return onAMember(kv -> {
            List<Entry> out = new ArrayList<>();
            RangeResponse r = kv.stub().range(RangeRequest.newBuilder().setKey(k).build());
            String note = "";
            KeyValue current = r.getKvsCount() == 0 ? null : r.getKvs(0);
            while (current != null && out.size() < VERSIONS_LIMIT) {
                out.add(Entry.of(current));
                long before = current.getModRevision() - 1;
                if (current.getVersion() <= 1 || before < current.getCreateRevision()) {
                    break;
                }
                try {
                    RangeResponse older = kv.stub().range(RangeRequest.newBuilder().setKey(k).setRevision(before).build());
                    current = older.getKvsCount() == 0 ? null : older.getKvs(0);
                } catch (StatusRuntimeException e) {
                    note = "older versions are gone: " + e.getStatus().getDescription();
                    break;
                }
            }
            if (out.size() == VERSIONS_LIMIT && current != null && current.getVersion() > 1) {
                note = "showing the newest " + VERSIONS_LIMIT + " versions";
            }
            return new Versions(kv.name(), out, note);
        });
    }

    Written put(String key, String value) {
        requireKey(key);
        Written w = onAMember(kv -> {
            PutResponse r = kv.stub().put(PutRequest.newBuilder().setKey(ByteString.copyFromUtf8(key))
                    .setValue(ByteString.copyFromUtf8(value)).build());
            return new Written(kv.name(), r.getHeader().getRevision(), 0);
        });
        log.add("key", "put " + key + " through " + w.servedBy() + " (revision " + w.revision() + ")");
        return w;
    }

    Written delete(String key, boolean prefix) {
        if (!prefix) {
            requireKey(key);
        }
        ByteString k = ByteString.copyFromUtf8(key);
        DeleteRangeRequest.Builder req = DeleteRangeRequest.newBuilder().setKey(k);
        if (prefix) {
            req.setKey(k.isEmpty() ? ByteString.copyFrom(new byte[] {0}) : k).setRangeEnd(KeyText.prefixEnd(k));
        }
        Written w = onAMember(kv -> {
            DeleteRangeResponse r = kv.stub().deleteRange(req.build());
            return new Written(kv.name(), r.getHeader().getRevision(), r.getDeleted());
        });
        log.add("key", "deleted " + w.deleted() + (prefix ? " keys with prefix \"" + key + "\"" : " key " + key)
                + " through " + w.servedBy() + " (revision " + w.revision() + ")");
        return w;
    }

    private static void requireKey(String key) {
        if (key.isEmpty()) {
            throw new LauncherException("etcdserver: key is not provided", ExitCodes.USAGE); // etcd's text
        }
    }

    /** A KV stub on one member, with the member's name for the page. */
    record Kv(String name, KVGrpc.KVBlockingStub stub) {}

    private <T> T onAMember(Function<Kv, T> call) {
        List<String> unreachable = new ArrayList<>();
        for (Endpoints.Endpoint e : endpoints.serving()) {
            MemberClient client = endpoints.client(e.url(), TIMEOUT);
            KVGrpc.KVBlockingStub stub = KVGrpc.newBlockingStub(client.channel())
                    .withDeadlineAfter(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            try {
                return call.apply(new Kv(e.process(), stub));
            } catch (StatusRuntimeException ex) {
                MemberCallException failure = new MemberCallException(URI.create(e.url().toString()), ex);
                if (!failure.unreachable()) {
                    throw failure;
                }
                unreachable.add(failure.getMessage());
            }
        }
        throw new LauncherException(unreachable.isEmpty() ? "no member is running"
                : "no member could be reached: " + String.join("; ", unreachable), ExitCodes.NOT_RUNNING);
    }
}
