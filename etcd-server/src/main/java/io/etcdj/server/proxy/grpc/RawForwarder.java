package io.etcdj.server.proxy.grpc;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.HandlerRegistry;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerMethodDefinition;
import io.grpc.Status;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * Forwards any method the proxy has no handler of its own for (Lease, Maintenance, Auth, Lock,
 * Election, Cluster) to the cluster as opaque bytes: one upstream call per client call, messages,
 * half-close, cancellation and the final status passed through unchanged, so etcd's errors reach
 * the client exactly as the member wrote them.
 */
final class RawForwarder extends HandlerRegistry {
    private static final MethodDescriptor.Marshaller<byte[]> BYTES = new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(byte[] value) {
            return new ByteArrayInputStream(value);
        }

        @Override
        public byte[] parse(InputStream stream) {
            try {
                return stream.readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    };

    private final Channel upstream;

    RawForwarder(Channel upstream) {
        this.upstream = upstream;
    }

    @Override
    public ServerMethodDefinition<?, ?> lookupMethod(String methodName, String authority) {
        MethodDescriptor<byte[], byte[]> method = MethodDescriptor.<byte[], byte[]>newBuilder()
                .setFullMethodName(methodName)
                .setType(MethodDescriptor.MethodType.UNKNOWN)
                .setRequestMarshaller(BYTES)
                .setResponseMarshaller(BYTES)
                .build();
        ServerCallHandler<byte[], byte[]> handler = (serverCall, headers) -> {
            ClientCall<byte[], byte[]> clientCall = upstream.newCall(method, CallOptions.DEFAULT);
            Pipe pipe = new Pipe(serverCall, clientCall);
            // the token and other forwarded headers are added by ForwardedHeaders.attach on the channel
            pipe.start(new Metadata());
            return pipe.serverListener();
        };
        return ServerMethodDefinition.create(method, handler);
    }

    /** One client call and its upstream call; every call into either goes through this lock. */
    private static final class Pipe {
        private final ServerCall<byte[], byte[]> server;
        private final ClientCall<byte[], byte[]> client;
        private boolean headersSent;

        Pipe(ServerCall<byte[], byte[]> server, ClientCall<byte[], byte[]> client) {
            this.server = server;
            this.client = client;
        }

        synchronized void start(Metadata headers) {
            client.start(new ClientCall.Listener<>() {
                @Override
                public void onHeaders(Metadata h) {
                    sendHeaders();
                }

                @Override
                public void onMessage(byte[] message) {
                    synchronized (Pipe.this) {
                        sendHeaders();
                        server.sendMessage(message);
                        client.request(1);
                    }
                }

                @Override
                public void onClose(Status status, Metadata trailers) {
                    synchronized (Pipe.this) {
                        try {
                            server.close(status, new Metadata());
                        } catch (IllegalStateException e) {
                            // the client already went away
                        }
                    }
                }
            }, headers);
            client.request(1);
            server.request(1);
        }

        private synchronized void sendHeaders() {
            if (!headersSent) {
                headersSent = true;
                server.sendHeaders(new Metadata());
            }
        }

        ServerCall.Listener<byte[]> serverListener() {
            return new ServerCall.Listener<>() {
                @Override
                public void onMessage(byte[] message) {
                    synchronized (Pipe.this) {
                        client.sendMessage(message);
                        server.request(1);
                    }
                }

                @Override
                public void onHalfClose() {
                    synchronized (Pipe.this) {
                        client.halfClose();
                    }
                }

                @Override
                public void onCancel() {
                    synchronized (Pipe.this) {
                        client.cancel("client cancelled", null);
                    }
                }
            };
        }
    }
}
