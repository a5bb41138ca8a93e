package io.etcdj.server.transport;

import io.etcdj.api.etcdserverpb.HashKVRequest;
import io.etcdj.api.etcdserverpb.HashKVResponse;
import io.etcdj.api.etcdserverpb.LeaseTimeToLiveRequest;
import io.etcdj.api.etcdserverpb.LeaseTimeToLiveResponse;
import io.etcdj.peerpb.LearnerReadyRequest;
import io.etcdj.peerpb.LearnerReadyResponse;
import io.etcdj.peerpb.LeaseRenewRequest;
import io.etcdj.peerpb.LeaseRenewResponse;
import io.etcdj.peerpb.MembersRequest;
import io.etcdj.peerpb.MembersResponse;
import io.etcdj.peerpb.PeerAck;
import io.etcdj.peerpb.PeerGrpc;
import io.etcdj.peerpb.PeerMessage;
import io.etcdj.peerpb.SnapshotChunk;
import io.etcdj.server.error.EtcdException;
import io.etcdj.server.metrics.Metrics;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The peer port's gRPC calls: snapshots (checked for cluster and sender, then handed over), discovery,
 * forwarded lease calls and hashes. Raft messages come on a stream of their own ({@link RaftStreamReceiver}).
 */
final class PeerService extends PeerGrpc.PeerImplBase {
    private final PeerHandler handler;
    private final Metrics metrics;
    private final SenderCheck senders;

    PeerService(PeerHandler handler, Metrics metrics, SenderCheck senders) {
        this.handler = handler;
        this.metrics = metrics;
        this.senders = senders;
    }

    /** Returns the refusal for a message, or null if it may pass. */
    private Status check(PeerMessage m) {
        String refusal = senders.refusal(m.getClusterId(), m.getFrom());
        return refusal == null ? null : Status.FAILED_PRECONDITION.withDescription(refusal);
    }

    @Override
    public StreamObserver<SnapshotChunk> snapshot(StreamObserver<PeerAck> out) {
        return new StreamObserver<>() {
            private PeerMessage header;
            private Path file;
            private OutputStream os;
            private boolean failed;
            private final long start = System.nanoTime();

            @Override
            public void onNext(SnapshotChunk c) {
                if (failed) {
                    return;
                }
                try {
                    if (header == null) {
                        Status refusal = check(c.getHeader());
                        if (refusal != null) {
                            failed = true;
                            out.onError(refusal.asRuntimeException());
                            return;
                        }
                        header = c.getHeader();
                        file = Files.createTempFile(handler.snapshotTempDir(), "incoming", ".snap.db");
                        os = Files.newOutputStream(file);
                    }
                    os.write(c.getData().toByteArray());
                } catch (IOException e) {
                    failed = true;
                    cleanup();
                    metrics.peers.snapshotReceived(header == null ? 0 : header.getFrom(), false, start);
                    out.onError(Status.INTERNAL.withDescription("cannot store snapshot: " + e.getMessage()).asRuntimeException());
                }
            }

            private void cleanup() {
                try {
                    if (os != null) {
                        os.close();
                    }
                    if (file != null) {
                        Files.deleteIfExists(file);
                    }
                } catch (IOException ignored) {
                    // the temp file is in the member's own snap dir and is removed on the next attempt
                }
            }

            @Override
            public void onError(Throwable t) {
                cleanup();
                if (header != null) {
                    metrics.peers.snapshotReceived(header.getFrom(), false, start);
                }
            }

            @Override
            public void onCompleted() {
                if (failed || header == null) {
                    return;
                }
                try {
                    os.close();
                } catch (IOException e) {
                    cleanup();
                    out.onError(Status.INTERNAL.withDescription(e.getMessage()).asRuntimeException());
                    return;
                }
                metrics.snapDbSave.since(start);
                metrics.peers.snapshotReceived(header.getFrom(), true, start);
                handler.receiveSnapshot(header.getMessage(), file);
                out.onNext(PeerAck.getDefaultInstance());
                out.onCompleted();
            }
        };
    }

    @Override
    public void members(MembersRequest r, StreamObserver<MembersResponse> out) {
        out.onNext(handler.members());
        out.onCompleted();
    }

    @Override
    public void leaseRenew(LeaseRenewRequest r, StreamObserver<LeaseRenewResponse> out) {
        out.onNext(handler.renewLease(r.getId()));
        out.onCompleted();
    }

    @Override
    public void learnerReady(LearnerReadyRequest r, StreamObserver<LearnerReadyResponse> out) {
        out.onNext(handler.learnerReady(r.getMemberId()));
        out.onCompleted();
    }

    @Override
    public void hashKV(HashKVRequest r, StreamObserver<HashKVResponse> out) {
        try {
            out.onNext(handler.hashKv(r.getRevision()));
            out.onCompleted();
        } catch (EtcdException e) {
            out.onError(Status.fromCode(e.error().code()).withDescription(e.getMessage()).asRuntimeException());
        }
    }

    @Override
    public void leaseTimeToLive(LeaseTimeToLiveRequest r, StreamObserver<LeaseTimeToLiveResponse> out) {
        out.onNext(handler.leaseTimeToLive(r));
        out.onCompleted();
    }
}
