package io.etcdj.robustness;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.DefragmentRequest;
import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.api.etcdserverpb.RangeResponse;
import io.etcdj.api.etcdserverpb.SnapshotRequest;
import io.etcdj.api.etcdserverpb.SnapshotResponse;
import io.etcdj.robustness.Op.Kind;
import io.etcdj.robustness.Op.Outcome;
import io.grpc.StatusRuntimeException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Iterator;
import java.util.List;

/**
 * What a power-loss round checks once its members restarted: every acknowledged write (and 1 MiB
 * filler write) is on every member at its revision, and each backend is whole (defragment and
 * snapshot answer, the snapshot and the backend file read whole with {@link BackendWalk}). What
 * fails is added to the round's violations.
 */
final class PowerLossChecks {
    private final Cluster cluster;
    /** The round's directory: saved snapshots and backend copies are read there, then deleted. */
    private final Path dir;
    private final List<String> violations;

    PowerLossChecks(Cluster cluster, Path dir, List<String> violations) {
        this.cluster = cluster;
        this.dir = dir;
        this.violations = violations;
    }

    static boolean acknowledgedWrite(Op op) {
        return op.kind() != Kind.READ && op.outcome() == Outcome.OK;
    }

    /** Acknowledged writes some member does not have at their revision (or later, where compacted). */
    int lostWrites(List<Op> history) {
        int lost = 0;
        for (Op op : history) {
            if (!acknowledgedWrite(op)) {
                continue;
            }
            for (MemberProcess m : cluster.members()) {
                String problem = missing(m, op.key(), op.revision(), op.value());
                if (problem != null) {
                    if (lost < 5) {
                        violations.add(m.name + ": acknowledged write lost: " + op + "; " + problem);
                    }
                    lost++;
                    break;
                }
            }
        }
        if (lost > 5) {
            violations.add(lost + " acknowledged writes lost in all");
        }
        return lost;
    }

    /** Acknowledged 1 MiB filler writes some member does not have with their value. */
    int lostFills(List<PowerLossRound.Fill> fills) {
        int lost = 0;
        for (PowerLossRound.Fill f : fills) {
            for (MemberProcess m : cluster.members()) {
                String problem = missing(m, "fill", f.revision(), null);
                if (problem == null) {
                    RangeResponse r = cluster.kv(m, 10_000).range(RangeRequest.newBuilder().setKey(ByteString.copyFromUtf8("fill"))
                            .setRevision(f.revision()).setSerializable(true).build());
                    if (r.getCount() == 1 && !r.getKvs(0).getValue().startsWith(ByteString.copyFromUtf8("fill-" + f.n() + "|"))) {
                        problem = "has another value";
                    }
                }
                if (problem != null) {
                    violations.add(m.name + ": acknowledged 1 MiB write fill-" + f.n() + " at revision " + f.revision()
                            + " lost: " + problem);
                    lost++;
                    break;
                }
            }
        }
        return lost;
    }

    /** Null when m has key at revision (with value, when given), else what it has instead. */
    private String missing(MemberProcess m, String key, long revision, String value) {
        try {
            RangeResponse r = cluster.kv(m, 5000).range(RangeRequest.newBuilder().setKey(ByteString.copyFromUtf8(key))
                    .setRevision(revision).setSerializable(true).build());
            if (r.getCount() == 1 && r.getKvs(0).getModRevision() == revision
                    && (value == null || r.getKvs(0).getValue().toStringUtf8().equals(value))) {
                return null;
            }
            return "member has " + (r.getCount() == 0 ? "nothing" : "a value of revision " + r.getKvs(0).getModRevision());
        } catch (StatusRuntimeException e) {
            if (String.valueOf(e.getStatus().getDescription()).contains("compacted")) {
                // compacted away: the member must at least have reached that revision
                long current = cluster.kv(m, 5000).range(RangeRequest.newBuilder().setKey(ByteString.copyFromUtf8(key))
                        .setSerializable(true).build()).getHeader().getRevision();
                return current >= revision ? null : "compacted, and the member is only at revision " + current;
            }
            return "cannot read it: " + e.getStatus();
        }
    }

    /** Defragment and snapshot answer on every member; the snapshot and the backend file read whole. */
    void checkBackends() throws Exception {
        for (MemberProcess m : cluster.members()) {
            try {
                cluster.maintenance(m, 60_000).defragment(DefragmentRequest.getDefaultInstance());
            } catch (StatusRuntimeException e) {
                violations.add(m.name + ": defragment after the restart failed: " + e.getStatus());
                continue;
            }
            Path snapshot = dir.resolve(m.name + ".snapshot.db");
            try (OutputStream out = Files.newOutputStream(snapshot)) {
                Iterator<SnapshotResponse> it = cluster.maintenance(m, 120_000).snapshot(SnapshotRequest.getDefaultInstance());
                while (it.hasNext()) {
                    it.next().getBlob().writeTo(out);
                }
            } catch (StatusRuntimeException e) {
                violations.add(m.name + ": snapshot save after the restart failed: " + e.getStatus());
                continue;
            }
            String problem = BackendWalk.problem(snapshot);
            if (problem != null) {
                violations.add(m.name + ": the saved snapshot is damaged: " + problem);
            }
            Files.deleteIfExists(snapshot);
        }
        for (MemberProcess m : cluster.members()) {
            m.stop();
            Path copy = dir.resolve(m.name + ".backend-copy");
            Path db = m.dataDir.resolve("member/snap/db");
            if (!Files.exists(db)) {
                violations.add(m.name + ": no backend file member/snap/db after a clean stop");
                continue;
            }
            Files.copy(db, copy, StandardCopyOption.REPLACE_EXISTING);
            String problem = BackendWalk.problem(copy);
            if (problem != null) {
                violations.add(m.name + ": the backend file member/snap/db is damaged: " + problem);
            }
            Files.deleteIfExists(copy);
            Files.deleteIfExists(dir.resolve(m.name + ".backend-copy-lock"));
        }
    }
}
