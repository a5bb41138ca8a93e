package io.etcdj.benchmark;

import java.util.List;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/** The global flags of etcd's benchmark that say where and how hard to send requests. */
final class ConnectionOptions {
    @Option(names = "--endpoints", split = ",", defaultValue = "127.0.0.1:2379", scope = ScopeType.INHERIT,
            description = "gRPC endpoints (default: ${DEFAULT-VALUE})")
    List<String> endpoints;

    @Option(names = "--conns", defaultValue = "1", scope = ScopeType.INHERIT,
            description = "Total number of gRPC connections (default: ${DEFAULT-VALUE})")
    int conns;

    @Option(names = "--clients", defaultValue = "1", scope = ScopeType.INHERIT,
            description = "Total number of gRPC clients, each with one request in flight (default: ${DEFAULT-VALUE})")
    int clients;

    void validate() {
        if (conns < 1) {
            throw new BenchmarkException("--conns must be at least 1");
        }
        if (clients < 1) {
            throw new BenchmarkException("--clients must be at least 1");
        }
    }
}
