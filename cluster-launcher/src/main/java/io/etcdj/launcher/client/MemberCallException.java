package io.etcdj.launcher.client;

import io.etcdj.launcher.LauncherException;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.net.URI;

/** A gRPC call to a member failed; the message is the server's own error text. */
public final class MemberCallException extends LauncherException {
    private final Status.Code code;
    private final boolean unreachable;

    public MemberCallException(URI url, StatusRuntimeException e) {
        super(describe(url, e));
        this.code = e.getStatus().getCode();
        this.unreachable = isUnreachable(e.getStatus());
    }

    /** etcd answers some refusals with UNAVAILABLE too ("etcdserver: unhealthy cluster"). */
    private static boolean isUnreachable(Status s) {
        boolean fromServer = s.getDescription() != null && s.getDescription().startsWith("etcdserver:");
        return !fromServer && (s.getCode() == Status.Code.UNAVAILABLE || s.getCode() == Status.Code.DEADLINE_EXCEEDED);
    }

    public Status.Code code() {
        return code;
    }

    /** True when the member could not be reached at all (as opposed to refusing the request). */
    public boolean unreachable() {
        return unreachable;
    }

    private static String describe(URI url, StatusRuntimeException e) {
        String desc = e.getStatus().getDescription();
        if (!isUnreachable(e.getStatus()) && desc != null) {
            return desc;
        }
        return switch (e.getStatus().getCode()) {
            case UNAVAILABLE -> url + ": cannot connect" + (desc != null ? " (" + desc + ")" : "");
            case DEADLINE_EXCEEDED -> url + ": no answer in time";
            default -> desc != null ? desc : e.getStatus().getCode().toString();
        };
    }
}
