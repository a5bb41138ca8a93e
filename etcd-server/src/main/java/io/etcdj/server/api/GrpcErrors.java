package io.etcdj.server.api;

import io.etcdj.server.auth.AuthException;
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
        if (cause instanceof AuthException e) {
            return e.error().etcdError().status().asRuntimeException();
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
        // a bug or an I/O failure, not a request etcd would refuse: an error line with the stack trace
        LOG.log(Level.SEVERE, "request failed unexpectedly", cause);
        return Status.INTERNAL.withDescription(String.valueOf(cause.getMessage())).asRuntimeException();
    }

    /**
     * etcd's maintenance service answers auth failures with the auth package's own text and no
     * code (gRPC's Unknown), e.g. {@code auth: permission denied}; clients print that text.
     */
    static StatusRuntimeException toMaintenanceStatus(Throwable t) {
        if (unwrap(t) instanceof AuthException e) {
            return Status.UNKNOWN.withDescription(e.error().rawText()).asRuntimeException();
        }
        return toStatus(t);
    }

    static Throwable unwrap(Throwable t) {
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}
