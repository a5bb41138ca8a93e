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
import io.etcdj.peerpb.ProbeRequest;
import io.etcdj.peerpb.ProbeResponse;
import io.etcdj.peerpb.SnapshotChunk;
import io.etcdj.server.error.EtcdException;
import io.etcdj.server.log.Log;
import io.etcdj.server.log.LogSink;
import io.etcdj.server.membership.MemberIds;
import io.etcdj.server.metrics.Metrics;
import io.etcdj.server.version.Versions;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/** The receiving side of the peer protocol: checks the cluster and sender, then hands traffic over. */
final class PeerService extends PeerGrpc.PeerImplBase {
    static final String REMOVED = "the member has been permanently removed from the cluster";
    static final String CLUSTER_MISMATCH = "cluster ID mismatch";
    /** The member's logger (its sink, see MemberContext). */
    private final Log log;

    private final PeerHandler handler;
    private final Metrics metrics;

    PeerService(PeerHandler handler, Metrics metrics, LogSink logs) {
        this.log = logs.logger("rafthttp/stream");
        this.handler = handler;
        this.metrics = metrics;
    }

    /** Returns the refusal for a message, or null if it may pass. */
    private Status check(PeerMessage m) {
        long local = handler.clusterId();
        if (local != 0 && m.getClusterId() != local) {
            log.warn("request cluster ID mismatch", "local-member-id", MemberIds.hex(handler.memberId()),
                    "local-member-cluster-id", MemberIds.hex(local), "remote-peer-id", MemberIds.hex(m.getFrom()),
                    "remote-peer-cluster-id", MemberIds.hex(m.getClusterId()));
            return Status.FAILED_PRECONDITION.withDescription(CLUSTER_MISMATCH);
        }
        if (handler.isRemoved(m.getFrom())) {
            log.warn("rejected stream from remote peer because it was removed",
                    "local-member-id", MemberIds.hex(handler.memberId()), "remote-peer-id-stream-handler", MemberIds.hex(m.getFrom()));
            return Status.FAILED_PRECONDITION.withDescription(REMOVED);
        }
        return null;
    }

    @Override
    public StreamObserver<PeerMessage> stream(StreamObserver<PeerAck> out) {
        return new StreamObserver<>() {
            private boolean refused;
            private CounterDataPoint received;
            private long from;

            @Override
            public void onNext(PeerMessage m) {
                if (refused) {
                    return;
                }
                Status refusal = check(m);
                if (refusal != null) {
                    refused = true;
                    out.onError(refusal.asRuntimeException());
                    return;
                }
                if (received == null) {
                    from = m.getFrom();
                    received = metrics.peers.receivedFrom(from);
                }
                received.inc(m.getSerializedSize());
                handler.receive(m.getMessage());
            }

            @Override
            public void onError(Throwable t) {
                if (received != null) {
                    metrics.peers.receiveFailed(from);
                }
            }

            @Override
            public void onCompleted() {
                if (!refused) {
                    out.onNext(PeerAck.getDefaultInstance());
                    out.onCompleted();
                }
            }
        };
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
    public void probe(ProbeRequest r, StreamObserver<ProbeResponse> out) {
        out.onNext(ProbeResponse.newBuilder().setServerVersion(Versions.SERVER).build());
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
