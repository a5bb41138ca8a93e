package io.etcdj.server.etcdserver;

import io.etcdj.server.log.Log;
import java.util.HashMap;
import java.util.Map;

/**
 * Named points in a member's loops where a test can inject a delay or a crash, in the spirit of
 * etcd's gofail failpoints. Each member has its own set ({@link MemberContext}): two members in one
 * JVM never see each other's. The {@code etcd} command reads its set once at start from the
 * system property {@code etcdj.failpoints} or else {@code ETCDJ_FAILPOINTS}
 * ({@link #fromEnvironment}); an embedded member gets the set its builder names. A set is written
 * {@code name=action[,name=action]} where action is {@code sleep(millis)} or {@code crash} (the
 * process halts at once, exit status 2, as a SIGKILL would leave it). Unknown names are ignored;
 * a malformed list is refused ({@link IllegalArgumentException}), which stops the command at start.
 *
 * <p>Points: {@code raftBeforeSave}, {@code raftAfterSave} (persisted, not yet sent),
 * {@code raftAfterSend} (sent, committed entries not yet handed to the apply loop),
 * {@code applyBeforeConfChange}, {@code applyAfterCommit} (a batch is in the backend, its
 * waiters not yet told), {@code compactAfterCommitBatch} (etcd's name: a batch of a compaction is
 * committed, more are to come), {@code defragBeforeCopy} (etcd's name: a defragment holds the
 * backend exclusively and has not copied it yet).
 */
public final class Failpoints {
    /** No failpoint: every {@link #hit} returns at once. Immutable, so one instance serves every member. */
    public static final Failpoints NONE = new Failpoints(Map.of(), null);

    private final Map<String, String> active;
    private final Log log;

    private Failpoints(Map<String, String> active, Log log) {
        this.active = Map.copyOf(active);
        this.log = log;
    }

    /**
     * The failpoints {@code spec} lists ({@code name=action[,name=action]}; null or blank: none),
     * logging a crash on {@code log} before the process halts.
     *
     * @throws IllegalArgumentException with the reason, if {@code spec} is malformed
     */
    public static Failpoints of(String spec, Log log) {
        Map<String, String> parsed = parse(spec);
        return parsed.isEmpty() ? NONE : new Failpoints(parsed, log);
    }

    /**
     * Checks {@code spec} as {@link #of} reads it.
     *
     * @throws IllegalArgumentException with the reason, if {@code spec} is malformed
     */
    public static void validate(String spec) {
        parse(spec);
    }

    /**
     * The {@code etcd} command's set: the system property {@code etcdj.failpoints}, else the
     * environment variable {@code ETCDJ_FAILPOINTS}, read now (once per member start).
     *
     * @throws IllegalArgumentException with the reason, if the list is malformed
     */
    public static Failpoints fromEnvironment(Log log) {
        String spec = System.getProperty("etcdj.failpoints");
        return of(spec != null ? spec : System.getenv("ETCDJ_FAILPOINTS"), log);
    }

    /** Runs the action configured for {@code name}, if any. */
    public void hit(String name) {
        if (active.isEmpty()) {
            return;
        }
        String action = active.get(name);
        if (action == null) {
            return;
        }
        if (action.equals("crash")) {
            log.warn("failpoint: crashing", "failpoint", name);
            Runtime.getRuntime().halt(2);
        }
        try {
            Thread.sleep(Long.parseLong(action.substring("sleep(".length(), action.length() - 1)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
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
}
