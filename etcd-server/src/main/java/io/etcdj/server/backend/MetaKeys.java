package io.etcdj.server.backend;

import java.nio.charset.StandardCharsets;

/** Keys of the {@link Bucket#META} bucket. */
public final class MetaKeys {
    public static final byte[] CONSISTENT_INDEX = bytes("consistent_index");
    public static final byte[] TERM = bytes("term");
    public static final byte[] SCHEDULED_COMPACT_REV = bytes("scheduledCompactRev");
    public static final byte[] FINISHED_COMPACT_REV = bytes("finishedCompactRev");
    public static final byte[] CLUSTER_VERSION = bytes("clusterVersion");
    /** etcd 3.6's downgrade job, as JSON. */
    public static final byte[] DOWNGRADE = bytes("downgrade");

    private MetaKeys() {
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
