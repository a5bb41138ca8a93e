package io.etcdj.client;

import io.grpc.Status;

/**
 * Observes unary calls that failed, as etcd's Go client logs them from its retry interceptor. etcdctl
 * prints those log lines; library users usually pass {@link #NONE}.
 */
@FunctionalInterface
public interface CallListener {

    CallListener NONE = (endpoint, status, attempt) -> { };

    /**
     * Called once for each failed attempt of a unary call.
     *
     * @param endpoint the endpoint text the call was sent to
     * @param status   the gRPC status, with etcd's description
     * @param attempt  zero-based attempt number
     */
    void unaryCallFailed(String endpoint, Status status, int attempt);
}
