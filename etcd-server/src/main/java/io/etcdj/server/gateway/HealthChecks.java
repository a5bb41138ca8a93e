package io.etcdj.server.gateway;

import io.etcdj.server.log.Log;
import io.etcdj.server.log.LogSink;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * etcd 3.6's /livez and /readyz (its etcdhttp CheckRegistry): named checks, each also served alone
 * under /livez/NAME and /readyz/NAME. The answer lists each check run as {@code [+]NAME ok} or
 * {@code [-]NAME failed: REASON}: a failure answers 503 with the list (and Go's http.Error's
 * newline), a pass answers {@code ok} (the list first with {@code ?verbose}). {@code ?exclude=NAME}
 * (repeatable, one name each) leaves a check out of the root path's run; excluding a name there is
 * no check for is logged, not refused, as etcd does "for version compatibility".
 */
public final class HealthChecks {
    /** The member's logger (its sink, see MemberContext). */
    private final Log log;

    /** A check's outcome: an empty string when it passed, else why it failed. */
    public interface Check extends Supplier<CompletableFuture<String>> {
    }

    private final String type;
    private final Map<String, Check> checks = new LinkedHashMap<>();

    /** {@code type}: "livez" or "readyz", the root path's name. */
    public HealthChecks(String type, LogSink logs) {
        this.log = logs.logger("etcdhttp");
        this.type = type;
    }

    public HealthChecks add(String check, Check c) {
        checks.put(check, c);
        return this;
    }

    /** The HTTP answer: status code and text body. */
    public record Answer(int status, String body) {
    }

    /** Whether {@code check} has a path of its own, /TYPE/CHECK. */
    public boolean has(String check) {
        return checks.containsKey(check);
    }

    /** /TYPE: every check but those excluded (each {@code exclude} value is one name, as etcd reads it). */
    public CompletableFuture<Answer> runAll(List<String> exclude, boolean verbose) {
        Set<String> excluded = new LinkedHashSet<>();
        for (String e : exclude) {
            if (!e.isEmpty()) {
                excluded.add(e);
            }
        }
        List<String> run = new ArrayList<>();
        for (String check : checks.keySet()) {
            if (!excluded.remove(check)) {
                run.add(check);
            }
        }
        if (!excluded.isEmpty()) {
            log.warn("some health checks cannot be excluded", "missing-health-checks", quoted(excluded));
        }
        return run("/" + type, run, verbose);
    }

    /** /TYPE/CHECK: that check alone. */
    public CompletableFuture<Answer> runOne(String check, boolean verbose) {
        return run("/" + type + "/" + check, List.of(check), verbose);
    }

    private CompletableFuture<Answer> run(String path, List<String> names, boolean verbose) {
        List<CompletableFuture<String>> running = new ArrayList<>();
        for (String check : names) {
            running.add(checks.get(check).get().exceptionally(t -> String.valueOf(t.getMessage())));
        }
        return CompletableFuture.allOf(running.toArray(CompletableFuture[]::new)).thenApply(x -> {
            StringBuilder lines = new StringBuilder();
            boolean failed = false;
            for (int i = 0; i < names.size(); i++) {
                String reason = running.get(i).join();
                boolean passed = reason.isEmpty();
                if (passed) {
                    lines.append("[+]").append(names.get(i)).append(" ok\n");
                } else {
                    failed = true;
                    lines.append("[-]").append(names.get(i)).append(" failed: ").append(reason).append('\n');
                }
            }
            if (failed) {
                log.error("Health check error", "path", path, "reason", lines.toString(), "status-code", 503);
                // http.Error writes the text and a newline
                return new Answer(503, lines + "\n");
            }
            return new Answer(200, (verbose ? lines.toString() : "") + "ok\n");
        });
    }

    /** Go's %q of each name, joined by commas (etcd's formatQuoted). */
    private static String quoted(Set<String> names) {
        List<String> out = new ArrayList<>();
        for (String n : names) {
            out.add('"' + n.replace("\\", "\\\\").replace("\"", "\\\"") + '"');
        }
        return String.join(",", out);
    }
}
