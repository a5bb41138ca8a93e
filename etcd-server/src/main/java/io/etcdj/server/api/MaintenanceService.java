package io.etcdj.server.api;

import io.etcdj.api.etcdserverpb.AlarmRequest;
import io.etcdj.api.etcdserverpb.AlarmResponse;
import io.etcdj.api.etcdserverpb.DefragmentRequest;
import io.etcdj.api.etcdserverpb.DefragmentResponse;
import io.etcdj.api.etcdserverpb.DowngradeRequest;
import io.etcdj.api.etcdserverpb.DowngradeResponse;
import io.etcdj.api.etcdserverpb.HashKVRequest;
import io.etcdj.api.etcdserverpb.HashKVResponse;
import io.etcdj.api.etcdserverpb.HashRequest;
import io.etcdj.api.etcdserverpb.HashResponse;
import io.etcdj.api.etcdserverpb.MaintenanceGrpc;
import io.etcdj.api.etcdserverpb.MoveLeaderRequest;
import io.etcdj.api.etcdserverpb.MoveLeaderResponse;
import io.etcdj.api.etcdserverpb.SnapshotRequest;
import io.etcdj.api.etcdserverpb.SnapshotResponse;
import io.etcdj.api.etcdserverpb.StatusRequest;
import io.etcdj.api.etcdserverpb.StatusResponse;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.io.IOException;

/** etcd's Maintenance service: status, alarms, defragment, hashes and snapshots. */
public final class MaintenanceService extends MaintenanceGrpc.MaintenanceImplBase {
    private final MaintenanceOperations server;
    private final AuthOperations auth;

    private final HealthService health;

    public MaintenanceService(MaintenanceOperations server, AuthOperations auth) {
        this(server, auth, null);
    }

    /** {@code health}: told when a defragmentation starts and ends (null: nobody). */
    public MaintenanceService(MaintenanceOperations server, AuthOperations auth, HealthService health) {
        this.server = server;
        this.auth = auth;
        this.health = health;
    }

    /**
     * Defragment, snapshot, hashes and leader moves need the root role once auth is enabled;
     * a refusal fails the call with the auth package's text, as etcd's maintenance service does.
     */
    private boolean admitted(StreamObserver<?> out) {
        try {
            auth.checkAdmin(Callers.current());
            return true;
        } catch (RuntimeException e) {
            out.onError(GrpcErrors.toMaintenanceStatus(e));
            return false;
        }
    }

    @Override
    public void status(StatusRequest r, StreamObserver<StatusResponse> out) {
        Replies.now(server::status, out);
    }

    @Override
    public void alarm(AlarmRequest r, StreamObserver<AlarmResponse> out) {
        if (r.getAction() == AlarmRequest.AlarmAction.GET) {
            Replies.now(() -> server.alarms(r), out);
            return;
        }
        Replies.async(() -> server.changeAlarm(Callers.caller(), r), out);
    }

    @Override
    public void moveLeader(MoveLeaderRequest r,
                           StreamObserver<MoveLeaderResponse> out) {
        if (!admitted(out)) {
            return;
        }
        Replies.async(() -> server.moveLeader(r.getTargetID()), out);
    }

    @Override
    public void defragment(DefragmentRequest r, StreamObserver<DefragmentResponse> out) {
        if (!admitted(out)) {
            return;
        }
        Replies.now(() -> {
            if (health != null) {
                health.defragStarted();
            }
            try {
                server.defragment();
            } finally {
                if (health != null) {
                    health.defragFinished();
                }
            }
            // etcd answers a defragment with an empty response, without a header
            return DefragmentResponse.getDefaultInstance();
        }, out);
    }

    @Override
    public void hash(HashRequest r, StreamObserver<HashResponse> out) {
        if (!admitted(out)) {
            return;
        }
        Replies.now(server::hash, out);
    }

    @Override
    public void hashKV(HashKVRequest r, StreamObserver<HashKVResponse> out) {
        if (!admitted(out)) {
            return;
        }
        Replies.now(() -> server.hashKv(r.getRevision()), out);
    }

    @Override
    public void downgrade(DowngradeRequest r,
                          StreamObserver<DowngradeResponse> out) {
        if (!admitted(out)) {
            return;
        }
        Replies.async(() -> server.downgrade(Callers.caller(), r), out);
    }

    /**
     * Streams a snapshot as etcd does: one consistent point of the backend written as etcd's
     * backend file (bbolt, so etcd's own {@code snapshot status} and {@code restore} read it),
     * then its SHA-256, so a client can check the file it saved. The file is built first, then
     * sent as fast as the client takes it ({@link SnapshotStream}).
     */
    @Override
    public void snapshot(SnapshotRequest r, StreamObserver<SnapshotResponse> out) {
        if (!admitted(out)) {
            return;
        }
        try {
            SnapshotStream.start((ServerCallStreamObserver<SnapshotResponse>) out, server::header, server.writeSnapshot());
        } catch (IOException | RuntimeException e) {
            out.onError(GrpcErrors.toStatus(e));
        }
    }
}
