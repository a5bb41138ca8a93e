package io.etcdj.server.proxy;

import java.time.Duration;

/** Durations in the proxies' log fields as zap encodes them (Go strings: {@link io.etcdj.server.config.Durations#format}). */
public final class GoDuration {
    private GoDuration() {
    }

    /** Seconds as zap encodes a duration field in etcd's logs: a number, integral when it can be. */
    public static Number seconds(Duration d) {
        if (d.getNano() == 0) {
            return d.getSeconds();
        }
        return d.toNanos() / 1e9;
    }
}
