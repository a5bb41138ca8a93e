package io.etcdj.server.config;

import io.etcdj.cli.GoDuration;
import java.time.Duration;

/**
 * A duration setting read as etcd's flags read it: Go's {@code time.ParseDuration} (cli-support's
 * {@link GoDuration}, the one parser), a bad value refused with Go's flag package text.
 */
public final class Durations {

    private Durations() {
    }

    public static Duration parse(String s, String flag) throws ConfigException {
        Duration d = tryParse(s);
        if (d == null) {
            throw new ConfigException("invalid value \"" + s + "\" for flag -" + flag + ": parse error", 2, true);
        }
        return d;
    }

    /** The duration, or null if {@code s} is not Go duration syntax. */
    public static Duration tryParse(String s) {
        if (s == null) {
            return null;
        }
        try {
            return GoDuration.parse(s);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
