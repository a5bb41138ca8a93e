package io.etcdj.server.etcdserver;

import io.etcdj.server.log.Log;
import java.util.HashMap;
import java.util.Map;

/**
 * Named points in the member's loops where a test can inject a delay or a crash, in the spirit of
 * etcd's gofail failpoints. Off unless {@code ETCDJ_FAILPOINTS} (or the system property
 * {@code etcdj.failpoints}) lists some, as {@code name=action[,name=action]} where action is
 * {@code sleep(millis)} or {@code crash} (the process halts at once, exit status 2, as a SIGKILL
 * would leave it). Unknown names are ignored; a malformed list stops the member at start.
 *
 * <p>Points: {@code raftBeforeSave}, {@code raftAfterSave} (persisted, not yet sent),
 * {@code raftAfterSend} (sent, committed entries not yet handed to the apply loop),
 * {@code applyBeforeConfChange}, {@code applyAfterCommit} (a batch is in the backend, its
 * waiters not yet told), {@code compactAfterCommitBatch} (etcd's name: a batch of a compaction is
 * committed, more are to come), {@code defragBeforeCopy} (etcd's name: a defragment holds the
 * backend exclusively and has not copied it yet).
 */
public final class Failpoints {
    private static final Log LOG = Log.get("etcdserver/failpoints");
    private static final String SPEC = firstNonNull(System.getProperty("etcdj.failpoints"), System.getenv("ETCDJ_FAILPOINTS"));
    private static final Map<String, String> ACTIVE = parseOrEmpty(SPEC);
    private static final boolean ANY = !ACTIVE.isEmpty();

    private Failpoints() {
    }

    /** Runs the action configured for {@code name}, if any. */
    public static void hit(String name) {
        if (!ANY) {
            return;
        }
        String action = ACTIVE.get(name);
        if (action == null) {
            return;
        }
        if (action.equals("crash")) {
            LOG.warn("failpoint: crashing", "failpoint", name);
            Runtime.getRuntime().halt(2);
        }
        try {
            Thread.sleep(Long.parseLong(action.substring("sleep(".length(), action.length() - 1)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Why the configured failpoints cannot be used, or null (checked once at start). */
    public static String configurationError() {
        try {
            parse(SPEC);
            return null;
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    private static Map<String, String> parseOrEmpty(String spec) {
        try {
            return parse(spec);
        } catch (IllegalArgumentException e) {
            return Map.of();
        }
    }

    static Map<String, String> parse(String spec) {
        Map<String, String> out = new HashMap<>();
        if (spec == null || spec.isBlank()) {
            return out;
        }
        for (String item : spec.split(",")) {
            String[] kv = item.trim().split("=", 2);
            if (kv.length != 2 || !(kv[1].equals("crash") || kv[1].matches("sleep\\(\\d+\\)"))) {
                throw new IllegalArgumentException("malformed failpoint '" + item + "': want name=sleep(millis) or name=crash");
            }
            out.put(kv[0], kv[1]);
        }
        return out;
    }

    private static String firstNonNull(String a, String b) {
        return a != null ? a : b;
    }
}
