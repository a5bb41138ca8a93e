package io.etcdj.client;

import com.google.protobuf.MessageLite;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ForwardingClientCall;
import io.grpc.MethodDescriptor;
import io.grpc.Status;

/**
 * The client's send limit (etcdctl's --max-request-bytes), checked as grpc-go checks it: before the
 * request leaves, failing the call at once with ResourceExhausted and grpc-go's text. grpc-java's
 * own outbound limit is enforced later, on the transport, where a call waiting for a ready
 * connection does not end; a message larger than this is refused on the caller's thread instead.
 */
final class RequestSizeLimit implements ClientInterceptor {
    private final int maxBytes;

    RequestSizeLimit(int maxBytes) {
        this.maxBytes = maxBytes;
    }

    @Override
    public <Q, A> ClientCall<Q, A> interceptCall(MethodDescriptor<Q, A> method, CallOptions options, Channel next) {
        return new ForwardingClientCall.SimpleForwardingClientCall<>(next.newCall(method, options)) {
            @Override
            public void sendMessage(Q message) {
                if (message instanceof MessageLite m && m.getSerializedSize() > maxBytes) {
                    throw Status.RESOURCE_EXHAUSTED.withDescription("trying to send message larger than max ("
                            + m.getSerializedSize() + " vs. " + maxBytes + ")").asRuntimeException();
                }
                super.sendMessage(message);
            }
        };
    }
}
