package io.etcdj.server.apply;

import io.etcdj.server.backend.Bucket;
import io.etcdj.server.backend.MetaKeys;
import io.etcdj.server.backend.ReadTx;
import io.etcdj.server.backend.WriteTx;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The cluster's downgrade job (etcd 3.6): whether one is enabled and its target cluster version,
 * applied in Raft order and kept under the meta bucket's {@code downgrade} key as etcd keeps it
 * ({@code {"target-version":"3.5.0","enabled":true}}).
 */
public final class DowngradeStore {
    private static final Pattern JSON = Pattern.compile(
            "\\{\"target-version\":\"([^\"]*)\",\"enabled\":(true|false)}");

    /** The job: enabled, and the version the cluster is going down to. */
    public record Info(boolean enabled, String targetVersion) {
        static final Info NONE = new Info(false, "");
    }

    private volatile Info info = Info.NONE;

    public void restore(ReadTx tx) {
        byte[] v = tx.get(Bucket.META, MetaKeys.DOWNGRADE);
        Info restored = Info.NONE;
        if (v != null) {
            Matcher m = JSON.matcher(new String(v, StandardCharsets.UTF_8));
            if (m.matches()) {
                restored = new Info(Boolean.parseBoolean(m.group(2)), m.group(1));
            }
        }
        info = restored;
    }

    public Info info() {
        return info;
    }

    void set(WriteTx tx, boolean enabled, String targetVersion) {
        Info next = new Info(enabled, enabled ? targetVersion : "");
        tx.put(Bucket.META, MetaKeys.DOWNGRADE, ("{\"target-version\":\"" + next.targetVersion() + "\",\"enabled\":"
                + next.enabled() + "}").getBytes(StandardCharsets.UTF_8));
        info = next;
    }
}
