package io.etcdj.client;

import io.grpc.Status;

/**
 * A failed etcd call. {@link #getMessage()} is the text etcdctl prints after "Error: ": etcd's own error
 * description for server errors, {@code context deadline exceeded} when the command timeout expired.
 */
public final class EtcdClientException extends RuntimeException {

    private final Status.Code code;

    public EtcdClientException(Status.Code code, String message, Throwable cause) {
        super(message, cause);
        this.code = code;
    }

    public Status.Code code() {
        return code;
    }

    /** True when the server rejected the caller's auth token (it expired or the server restarted). */
    public boolean isInvalidAuthToken() {
        return code == Status.Code.UNAUTHENTICATED && "etcdserver: invalid auth token".equals(getMessage());
    }

    /** True when the auth store changed after the server checked the caller (rpctypes.ErrAuthOldRevision). */
    public boolean isAuthOldRevision() {
        return code == Status.Code.INVALID_ARGUMENT && "etcdserver: revision of auth store is old".equals(getMessage());
    }

    /** True when the server has authentication switched off (rpctypes.ErrAuthNotEnabled). */
    public boolean isAuthNotEnabled() {
        return code == Status.Code.FAILED_PRECONDITION && "etcdserver: authentication is not enabled".equals(getMessage());
    }

    /** True when no endpoint could be reached in time. */
    public boolean isDeadlineExceeded() {
        return code == Status.Code.DEADLINE_EXCEEDED;
    }

    /** Maps a gRPC status the way etcd's Go client converts it into an error value. */
    public static EtcdClientException from(Status status) {
        String desc = status.getDescription();
        switch (status.getCode()) {
            case DEADLINE_EXCEEDED:
                return new EtcdClientException(status.getCode(), "context deadline exceeded", status.getCause());
            case CANCELLED:
                if (desc == null || !desc.startsWith("etcdserver:")) {
                    return new EtcdClientException(status.getCode(), "context canceled", status.getCause());
                }
                break;
            case UNAVAILABLE:
                if (desc == null || !desc.startsWith("etcdserver:")) {
                    return new EtcdClientException(status.getCode(),
                            "rpc error: code = Unavailable desc = " + (desc == null ? "" : desc), status.getCause());
                }
                break;
            default:
                break;
        }
        // The Go client turns only etcd's own errors into plain messages; anything else keeps gRPC's form.
        if (desc != null && desc.startsWith("etcdserver: ")) {
            return new EtcdClientException(status.getCode(), desc, status.getCause());
        }
        return new EtcdClientException(status.getCode(), GoStatusNames.rpcError(status), status.getCause());
    }
}
