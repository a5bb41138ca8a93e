package io.etcdj.client;

import io.grpc.Status;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * grpc-java's text for a response over the client's receive limit (--max-recv-bytes), in grpc-go's
 * words (what etcdctl prints after "Error: rpc error: code = ResourceExhausted desc = "). The send
 * limit is checked by {@link RequestSizeLimit}, in grpc-go's words already.
 */
final class MessageSizeTexts {
    /** grpc-java's MessageDeframer: "gRPC message exceeds maximum size MAX: SIZE". */
    private static final Pattern RECEIVE = Pattern.compile("gRPC message exceeds maximum size (\\d+): (\\d+)");

    private MessageSizeTexts() {
    }

    static Status asGo(Status status) {
        Matcher receive = RECEIVE.matcher(status.getDescription());
        if (receive.find()) {
            return status.withDescription("grpc: received message larger than max (" + receive.group(2) + " vs. "
                    + receive.group(1) + ")");
        }
        return status;
    }
}
