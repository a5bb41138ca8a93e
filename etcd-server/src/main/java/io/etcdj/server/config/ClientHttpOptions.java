package io.etcdj.server.config;

import java.net.URI;
import java.util.List;

/**
 * The client side's HTTP: listeners of its own (--listen-client-http-urls; when given, the
 * --listen-client-urls serve gRPC only, as etcd 3.6), the origins CORS headers allow (--cors) and
 * the Host names accepted on plain-text connections (--host-whitelist). {@code *} or an empty list
 * allows all, as etcd.
 */
public record ClientHttpOptions(List<URI> listenClientHttpUrls, List<String> cors, List<String> hostWhitelist) {
    public static final ClientHttpOptions DEFAULTS = new ClientHttpOptions(List.of(), List.of("*"), List.of("*"));

    public ClientHttpOptions {
        listenClientHttpUrls = List.copyOf(listenClientHttpUrls);
        cors = List.copyOf(cors);
        hostWhitelist = List.copyOf(hostWhitelist);
    }
}
