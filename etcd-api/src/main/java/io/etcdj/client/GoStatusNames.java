package io.etcdj.client;

import io.grpc.Status;
import java.util.Locale;

/** gRPC status code names as Go spells them ("NotFound", "OutOfRange"), for messages that mirror Go's. */
public final class GoStatusNames {

    private GoStatusNames() {
    }

    public static String name(Status.Code code) {
        if (code == Status.Code.OK) {
            return "OK";
        }
        StringBuilder b = new StringBuilder();
        for (String part : code.name().split("_")) {
            b.append(part.charAt(0)).append(part.substring(1).toLowerCase(Locale.ROOT));
        }
        return b.toString();
    }

    /** The text Go's status package gives an error: {@code rpc error: code = X desc = Y}. */
    public static String rpcError(Status status) {
        return "rpc error: code = " + name(status.getCode()) + " desc = "
                + (status.getDescription() == null ? "" : status.getDescription());
    }
}
