package io.etcdj.client;

import io.grpc.CallCredentials;
import io.grpc.Metadata;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReference;

/** Sends the current auth token in etcd's {@code token} header; no header while no token is held. */
final class TokenCredentials extends CallCredentials {

    static final Metadata.Key<String> TOKEN = Metadata.Key.of("token", Metadata.ASCII_STRING_MARSHALLER);

    private final AtomicReference<String> token;

    TokenCredentials(AtomicReference<String> token) {
        this.token = token;
    }

    @Override
    public void applyRequestMetadata(RequestInfo info, Executor executor, MetadataApplier applier) {
        Metadata headers = new Metadata();
        String current = token.get();
        if (current != null) {
            headers.put(TOKEN, current);
        }
        applier.apply(headers);
    }
}
