package io.etcdj.ctl.check;

import java.time.Duration;
import java.util.Optional;

/** etcdctl's check perf workloads: writes per second to sustain, concurrent writers, and run length. */
public enum PerfLoad {
    SMALL("s", "small", 150, 50),
    MEDIUM("m", "medium", 1000, 200),
    LARGE("l", "large", 8000, 500),
    XLARGE("xl", "xLarge", 15000, 1000);

    /** Every model runs for a minute. */
    public static final Duration DURATION = Duration.ofSeconds(60);

    private final String shortName;
    private final String longName;
    private final int writesPerSecond;
    private final int clients;

    PerfLoad(String shortName, String longName, int writesPerSecond, int clients) {
        this.shortName = shortName;
        this.longName = longName;
        this.writesPerSecond = writesPerSecond;
        this.clients = clients;
    }

    public int writesPerSecond() {
        return writesPerSecond;
    }

    public int clients() {
        return clients;
    }

    /** By etcdctl's names: {@code s small m medium l large xl xLarge} (case-sensitive, as etcdctl). */
    public static Optional<PerfLoad> byName(String name) {
        for (PerfLoad l : values()) {
            if (l.shortName.equals(name) || l.longName.equals(name)) {
                return Optional.of(l);
            }
        }
        return Optional.empty();
    }
}
