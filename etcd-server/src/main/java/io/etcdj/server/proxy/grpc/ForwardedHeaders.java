package io.etcdj.server.proxy.grpc;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.ForwardingClientCall;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import java.util.List;

/**
 * Carries the request headers etcd reads (the auth token, "hasleader") from a client's call to
 * the calls the proxy makes upstream for it, so the cluster authenticates the real client.
 */
final class ForwardedHeaders {
    private static final List<Metadata.Key<String>> KEYS = List.of(
            Metadata.Key.of("token", Metadata.ASCII_STRING_MARSHALLER),
            Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER),
            Metadata.Key.of("hasleader", Metadata.ASCII_STRING_MARSHALLER));
    private static final Context.Key<Metadata> INCOMING = Context.key("etcdj-proxy-headers");

    private ForwardedHeaders() {
    }

    /** Copies the forwarded headers of {@code from} into a fresh Metadata. */
    static Metadata select(Metadata from) {
        Metadata out = new Metadata();
        if (from == null) {
            return out;
        }
        for (Metadata.Key<String> k : KEYS) {
            String v = from.get(k);
            if (v != null) {
                out.put(k, v);
            }
        }
        return out;
    }

    /** Server side: remembers the client's headers in the call's context. */
    static ServerInterceptor capture() {
        return new ServerInterceptor() {
            @Override
            public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
                    ServerCallHandler<Q, R> next) {
                return Contexts.interceptCall(Context.current().withValue(INCOMING, select(headers)), call, headers, next);
            }
        };
    }

    /** Client side: adds the remembered headers to upstream calls made in that context. */
    static ClientInterceptor attach() {
        return new ClientInterceptor() {
            @Override
            public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
                Metadata incoming = INCOMING.get();
                return new ForwardingClientCall.SimpleForwardingClientCall<>(next.newCall(method, options)) {
                    @Override
                    public void start(Listener<R> listener, Metadata headers) {
                        if (incoming != null) {
                            headers.merge(incoming);
                        }
                        super.start(listener, headers);
                    }
                };
            }
        };
    }
}
