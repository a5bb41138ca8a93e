package com.example.flags;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.Watch;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.WatchOption;
import io.etcd.jetcd.watch.WatchEvent;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * An example service: feature flags kept in etcd under a prefix, read once and then kept current
 * by a watch from the revision of that read (so no change between the two is missed).
 */
public final class FeatureFlags implements AutoCloseable {
    private final Client client;
    private final String prefix;
    private final Map<String, String> flags = new ConcurrentHashMap<>();
    private final Watch.Watcher watcher;

    public FeatureFlags(Client client, String prefix) throws ExecutionException, InterruptedException, TimeoutException {
        this.client = client;
        this.prefix = prefix;
        ByteSequence p = bytes(prefix);
        var snapshot = client.getKVClient().get(p, GetOption.newBuilder().isPrefix(true).build()).get(10, TimeUnit.SECONDS);
        for (KeyValue kv : snapshot.getKvs()) {
            flags.put(name(kv), kv.getValue().toString(StandardCharsets.UTF_8));
        }
        long next = snapshot.getHeader().getRevision() + 1;
        this.watcher = client.getWatchClient().watch(p, WatchOption.newBuilder().isPrefix(true).withRevision(next).build(),
                response -> {
                    for (WatchEvent e : response.getEvents()) {
                        if (e.getEventType() == WatchEvent.EventType.PUT) {
                            flags.put(name(e.getKeyValue()), e.getKeyValue().getValue().toString(StandardCharsets.UTF_8));
                        } else if (e.getEventType() == WatchEvent.EventType.DELETE) {
                            flags.remove(name(e.getKeyValue()));
                        }
                    }
                });
    }

    public void set(String flag, String value) throws ExecutionException, InterruptedException, TimeoutException {
        client.getKVClient().put(bytes(prefix + flag), bytes(value)).get(10, TimeUnit.SECONDS);
    }

    public void remove(String flag) throws ExecutionException, InterruptedException, TimeoutException {
        client.getKVClient().delete(bytes(prefix + flag)).get(10, TimeUnit.SECONDS);
    }

    /** The flag as this instance last saw it (eventually consistent: fed by the watch). */
    public Optional<String> get(String flag) {
        return Optional.ofNullable(flags.get(flag));
    }

    private String name(KeyValue kv) {
        return kv.getKey().toString(StandardCharsets.UTF_8).substring(prefix.length());
    }

    private static ByteSequence bytes(String s) {
        return ByteSequence.from(s, StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        watcher.close();
    }
}
