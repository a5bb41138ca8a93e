package io.etcdj.ctl.check;

import java.util.Optional;

/** etcdctl's check datascale workloads: how many key-value pairs to write and with how many writers. */
public enum DatascaleLoad {
    SMALL("s", "small", 10_000, 50),
    MEDIUM("m", "medium", 100_000, 200),
    LARGE("l", "large", 1_000_000, 500),
    XLARGE("xl", "xLarge", 3_000_000, 1000);

    /** Each pair is a 512-byte key and a 512-byte value; etcdctl reports them as 1024 bytes. */
    public static final int KEY_VALUE_BYTES = 1024;

    private final String shortName;
    private final String longName;
    private final int pairs;
    private final int clients;

    DatascaleLoad(String shortName, String longName, int pairs, int clients) {
        this.shortName = shortName;
        this.longName = longName;
        this.pairs = pairs;
        this.clients = clients;
    }

    public int pairs() {
        return pairs;
    }

    public int clients() {
        return clients;
    }

    /** By etcdctl's names: {@code s small m medium l large xl xLarge}. */
    public static Optional<DatascaleLoad> byName(String name) {
        for (DatascaleLoad l : values()) {
            if (l.shortName.equals(name) || l.longName.equals(name)) {
                return Optional.of(l);
            }
        }
        return Optional.empty();
    }
}
