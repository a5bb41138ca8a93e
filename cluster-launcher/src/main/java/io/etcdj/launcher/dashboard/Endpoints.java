package io.etcdj.launcher.dashboard;

import io.etcdj.launcher.client.MemberClient;
import java.net.URI;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Where the key browser and the watch pane send their requests: the members that run, the leader
 * first (a write through it saves a hop), then those that answer. Keeps one gRPC connection per
 * member URL for as long as the dashboard runs.
 */
final class Endpoints implements AutoCloseable {
    /** A member's name and client URL. */
    record Endpoint(String process, URI url) {}

    private final ClusterWatcher watcher;
    private final Map<String, MemberClient> clients = new HashMap<>();

    Endpoints(ClusterWatcher watcher) {
        this.watcher = watcher;
    }

    List<Endpoint> serving() {
        return watcher.view().members().stream()
                .filter(m -> "running".equals(m.state()))
                .sorted(Comparator.comparing((MemberView m) -> !m.isLeader()).thenComparing(m -> !m.answering()))
                .map(m -> new Endpoint(m.process(), URI.create(m.clientUrl())))
                .toList();
    }

    /** A connection to {@code url}; calls set their own deadlines. */
    synchronized MemberClient client(URI url, Duration timeout) {
        String key = url + "|" + watcher.tls().map(Object::toString).orElse("");
        return clients.computeIfAbsent(key, k -> new MemberClient(url, watcher.tls(), timeout));
    }

    @Override
    public synchronized void close() {
        clients.values().forEach(MemberClient::close);
        clients.clear();
    }
}
