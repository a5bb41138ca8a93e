package io.etcdj.server.api;

import io.etcdj.healthpb.HealthCheckRequest;
import io.etcdj.healthpb.HealthCheckResponse;
import io.etcdj.healthpb.HealthCheckResponse.ServingStatus;
import io.etcdj.healthpb.HealthGrpc;
import io.etcdj.server.log.Log;
import io.etcdj.server.log.LogSink;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;

/**
 * gRPC's health service as etcd registers it on the client port: the whole server ("") is
 * SERVING; with the StopGRPCServiceOnDefrag feature gate (etcd 3.6) it reports NOT_SERVING while
 * a defragmentation runs, so health-checking clients and load balancers send their calls to
 * other members meanwhile. Other service names are unknown, as in grpc-go's health server.
 */
public final class HealthService extends HealthGrpc.HealthImplBase {
    /** The member's logger (its sink, see MemberContext). */
    private final Log log;
    private static final String ALL = "";

    private final boolean stopOnDefrag;
    private volatile ServingStatus status = ServingStatus.SERVING;
    private final Set<StreamObserver<HealthCheckResponse>> watchers = new CopyOnWriteArraySet<>();

    public HealthService(boolean stopOnDefrag, LogSink logs) {
        this.log = logs.logger("v3rpc/health");
        this.stopOnDefrag = stopOnDefrag;
        log.info("grpc service status changed", "service", ALL, "status", ServingStatus.SERVING.name());
    }

    /** A defragmentation starts: NOT_SERVING with the gate on. */
    public void defragStarted() {
        if (stopOnDefrag) {
            log.warn("grpc service status changed", "service", ALL, "status", ServingStatus.NOT_SERVING.name(),
                    "reason", "defrag is active");
            set(ServingStatus.NOT_SERVING);
        }
    }

    /** The defragmentation ended: SERVING again. */
    public void defragFinished() {
        if (stopOnDefrag) {
            log.info("grpc service status changed", "service", ALL, "status", ServingStatus.SERVING.name());
            set(ServingStatus.SERVING);
        }
    }

    private void set(ServingStatus s) {
        status = s;
        HealthCheckResponse r = HealthCheckResponse.newBuilder().setStatus(s).build();
        for (StreamObserver<HealthCheckResponse> w : watchers) {
            try {
                w.onNext(r);
            } catch (RuntimeException e) {
                watchers.remove(w);
            }
        }
    }

    @Override
    public void check(HealthCheckRequest r, StreamObserver<HealthCheckResponse> out) {
        if (!r.getService().equals(ALL)) {
            out.onError(Status.NOT_FOUND.withDescription("unknown service").asRuntimeException());
            return;
        }
        out.onNext(HealthCheckResponse.newBuilder().setStatus(status).build());
        out.onCompleted();
    }

    @Override
    public void watch(HealthCheckRequest r, StreamObserver<HealthCheckResponse> out) {
        if (!r.getService().equals(ALL)) {
            out.onNext(HealthCheckResponse.newBuilder().setStatus(ServingStatus.SERVICE_UNKNOWN).build());
            return;
        }
        if (out instanceof ServerCallStreamObserver<HealthCheckResponse> call) {
            call.setOnCancelHandler(() -> watchers.remove(out));
        }
        watchers.add(out);
        out.onNext(HealthCheckResponse.newBuilder().setStatus(status).build());
    }
}
