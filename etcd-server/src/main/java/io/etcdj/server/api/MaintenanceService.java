package io.etcdj.server.api;

import io.etcdj.server.version.Versions;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.AlarmMember;
import io.etcdj.api.etcdserverpb.AlarmRequest;
import io.etcdj.api.etcdserverpb.AlarmResponse;
import io.etcdj.api.etcdserverpb.AlarmType;
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
import io.etcdj.server.etcdserver.EtcdServer;
import io.etcdj.server.backend.Bucket;
import io.etcdj.server.backend.ReadTx;
import io.etcdj.server.mvcc.ReadView;
import io.etcdj.serverpb.InternalRaftRequest;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.zip.CRC32C;

/** etcd's Maintenance service: status, alarms, defragment, hashes and snapshots. */
public final class MaintenanceService extends MaintenanceGrpc.MaintenanceImplBase {
    private static final int SNAPSHOT_CHUNK = 32 * 1024;

    private final EtcdServer server;

    public MaintenanceService(EtcdServer server) {
        this.server = server;
    }

    @Override
    public void status(StatusRequest r, StreamObserver<StatusResponse> out) {
        Replies.now(server::status, out);
    }

    @Override
    public void alarm(AlarmRequest r, StreamObserver<AlarmResponse> out) {
        if (r.getAction() == AlarmRequest.AlarmAction.GET) {
            Replies.now(() -> {
                AlarmResponse.Builder b = AlarmResponse.newBuilder().setHeader(server.header());
                for (AlarmMember a : server.alarms().list()) {
                    if (r.getAlarm() == AlarmType.NONE || a.getAlarm() == r.getAlarm()) {
                        b.addAlarms(a);
                    }
                }
                return b.build();
            }, out);
            return;
        }
        Replies.async(() -> server.propose(InternalRaftRequest.newBuilder().setAlarm(r), AlarmResponse.class), out);
    }

    @Override
    public void moveLeader(io.etcdj.api.etcdserverpb.MoveLeaderRequest r,
                           StreamObserver<io.etcdj.api.etcdserverpb.MoveLeaderResponse> out) {
        Replies.async(() -> server.moveLeader(r.getTargetID()).thenApply(x ->
                io.etcdj.api.etcdserverpb.MoveLeaderResponse.newBuilder().setHeader(server.header()).build()), out);
    }

    @Override
    public void defragment(DefragmentRequest r, StreamObserver<DefragmentResponse> out) {
        Replies.now(() -> {
            server.defragment();
            // etcd answers a defragment with an empty response, without a header
            return DefragmentResponse.getDefaultInstance();
        }, out);
    }

    @Override
    public void hash(HashRequest r, StreamObserver<HashResponse> out) {
        Replies.now(() -> {
            CRC32C crc = new CRC32C();
            try (ReadView v = server.store().openRead()) {
                ReadTx tx = v.backendRead();
                for (Bucket b : Bucket.values()) {
                    if (b == Bucket.META) {
                        continue; // holds the consistent index, which differs between members
                    }
                    crc.update(b.dbName().getBytes());
                    tx.forEach(b, null, null, (k, val) -> {
                        crc.update(k);
                        crc.update(val);
                        return true;
                    });
                }
                return HashResponse.newBuilder().setHeader(server.header(v.revision())).setHash((int) crc.getValue()).build();
            }
        }, out);
    }

    @Override
    public void hashKV(HashKVRequest r, StreamObserver<HashKVResponse> out) {
        Replies.now(() -> {
            try (ReadView v = server.store().openRead()) {
                long[] h = v.hashKv(r.getRevision());
                return HashKVResponse.newBuilder().setHeader(server.header(v.revision()))
                        .setHash((int) h[0]).setCompactRevision(v.compactRevision()).setHashRevision(h[1]).build();
            }
        }, out);
    }

    /**
     * Streams a consistent copy of the backend file followed by its SHA-256, as etcd does, so a
     * client can check the file it saved.
     */
    @Override
    public void snapshot(SnapshotRequest r, StreamObserver<SnapshotResponse> out) {
        Path tmp = null;
        try {
            tmp = Files.createTempFile(server.config().dataDir().toAbsolutePath(), "snapshot", ".tmp");
            server.backend().copyTo(tmp);
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
