package io.etcdj.server.api;

import io.etcdj.server.error.EtcdError;
import io.etcdj.server.error.EtcdException;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.logging.Level;
import java.util.logging.Logger;

/** The one place where failures become what a gRPC client sees. */
public final class GrpcErrors {
    private static final Logger LOG = Logger.getLogger(GrpcErrors.class.getName());

    private GrpcErrors() {
    }

    public static StatusRuntimeException toStatus(Throwable t) {
        Throwable cause = unwrap(t);
        if (cause instanceof EtcdException e) {
            return e.error().status().asRuntimeException();
        }
        if (cause instanceof StatusRuntimeException s) {
            return s;
        }
        if (cause instanceof TimeoutException) {
            return EtcdError.TIMEOUT.status().asRuntimeException();
        }
        if (cause instanceof CancellationException) {
            return Status.CANCELLED.withDescription("context canceled").asRuntimeException();
        }
        LOG.log(Level.WARNING, "request failed unexpectedly", cause);
        return Status.INTERNAL.withDescription(String.valueOf(cause.getMessage())).asRuntimeException();
    }

    static Throwable unwrap(Throwable t) {
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}
