package io.etcdj.server.api;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.AlarmRequest;
import io.etcdj.api.etcdserverpb.AlarmResponse;
import io.etcdj.api.etcdserverpb.DefragmentRequest;
import io.etcdj.api.etcdserverpb.DefragmentResponse;
import io.etcdj.api.etcdserverpb.HashKVRequest;
import io.etcdj.api.etcdserverpb.HashKVResponse;
import io.etcdj.api.etcdserverpb.HashRequest;
import io.etcdj.api.etcdserverpb.HashResponse;
import io.etcdj.api.etcdserverpb.MaintenanceGrpc;
import io.etcdj.api.etcdserverpb.SnapshotRequest;
import io.etcdj.api.etcdserverpb.SnapshotResponse;
import io.etcdj.api.etcdserverpb.StatusRequest;
import io.etcdj.api.etcdserverpb.StatusResponse;
import io.etcdj.server.version.Versions;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** etcd's Maintenance service: status, alarms, defragment, hashes and snapshots. */
public final class MaintenanceService extends MaintenanceGrpc.MaintenanceImplBase {
    private static final int SNAPSHOT_CHUNK = 32 * 1024;

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
        Replies.async(() -> server.changeAlarm(r), out);
    }

    @Override
    public void moveLeader(io.etcdj.api.etcdserverpb.MoveLeaderRequest r,
                           StreamObserver<io.etcdj.api.etcdserverpb.MoveLeaderResponse> out) {
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
    public void downgrade(io.etcdj.api.etcdserverpb.DowngradeRequest r,
                          StreamObserver<io.etcdj.api.etcdserverpb.DowngradeResponse> out) {
        if (!admitted(out)) {
            return;
        }
        Replies.async(() -> server.downgrade(r), out);
    }

    /**
     * Streams a consistent copy of the backend file followed by its SHA-256, as etcd does, so a
     * client can check the file it saved.
     */
    @Override
    public void snapshot(SnapshotRequest r, StreamObserver<SnapshotResponse> out) {
        if (!admitted(out)) {
            return;
        }
        Path tmp = null;
        try {
            tmp = server.copyBackend();
            long size = Files.size(tmp);
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            long sent = 0;
            byte[] buf = new byte[SNAPSHOT_CHUNK];
            try (InputStream in = Files.newInputStream(tmp)) {
                int n;
                while ((n = in.readNBytes(buf, 0, buf.length)) > 0) {
                    sha.update(buf, 0, n);
                    sent += n;
                    out.onNext(SnapshotResponse.newBuilder().setHeader(server.header())
                            .setRemainingBytes(size - sent + 32).setBlob(ByteString.copyFrom(buf, 0, n)).build());
                }
            }
            out.onNext(SnapshotResponse.newBuilder().setHeader(server.header()).setRemainingBytes(0)
                    .setBlob(ByteString.copyFrom(sha.digest())).setVersion(Versions.STORAGE).build());
            out.onCompleted();
        } catch (IOException | NoSuchAlgorithmException | RuntimeException e) {
            out.onError(GrpcErrors.toStatus(e));
        } finally {
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    // a leftover temp file is harmless and is overwritten by name next time
                }
            }
        }
    }
}
