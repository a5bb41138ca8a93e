package io.etcdj.launcher.supervisor;

import io.etcdj.launcher.LauncherException;
import io.etcdj.launcher.client.MemberCallException;
import io.etcdj.launcher.client.MemberClient;
import io.etcdj.launcher.process.ClusterLayout;
import io.etcdj.launcher.process.MemberProcess;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.BooleanSupplier;

/**
 * Waits until members serve clients, i.e. answer Maintenance.Status (etcd answers once it has
 * joined the cluster). A member that exits meanwhile ends the wait with its last log lines.
 */
final class ReadinessWait {
    private final Duration timeout;
    private final BiFunction<MemberProcess, Duration, MemberClient> clients;
    private final BooleanSupplier stopping;
    private final ClusterLayout layout;

    ReadinessWait(Duration timeout, BiFunction<MemberProcess, Duration, MemberClient> clients,
            BooleanSupplier stopping, ClusterLayout layout) {
        this.timeout = timeout;
        this.clients = clients;
        this.stopping = stopping;
        this.layout = layout;
    }

    /** Returns the members still not serving when time ran out, or throws if {@code strict}. */
    List<MemberProcess> await(List<MemberProcess> wanted, boolean strict) {
        return await(wanted, strict, (serving, total) -> { });
    }

    /** {@link #await(List, boolean)}, telling {@code serving} each time one more member serves (count, of all). */
    List<MemberProcess> await(List<MemberProcess> wanted, boolean strict, BiConsumer<Integer, Integer> serving) {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<MemberProcess> pending = new ArrayList<>(wanted);
        Map<MemberProcess, MemberClient> open = new HashMap<>();
        try {
            while (!pending.isEmpty()) {
                for (MemberProcess mp : List.copyOf(pending)) {
                    if (mp.exitCode().isPresent()) {
                        throw exitedDuringStart(mp);
                    }
                    MemberClient c = open.computeIfAbsent(mp, p -> clients.apply(p, Duration.ofSeconds(1)));
                    try {
                        c.status();
                        pending.remove(mp);
                        serving.accept(wanted.size() - pending.size(), wanted.size());
                    } catch (MemberCallException notYet) {
                        // still starting
                    }
                }
                if (pending.isEmpty()) {
                    break;
                }
                if (stopping.getAsBoolean()) {
                    throw new LauncherException("start-up interrupted: the cluster is shutting down");
                }
                if (System.nanoTime() > deadline) {
                    if (!strict) {
                        return pending;
                    }
                    MemberProcess first = pending.get(0);
                    throw new LauncherException("timed out after " + timeout.toSeconds() + "s waiting for "
                            + first.spec().process() + " to serve clients on " + first.spec().clientUrl()
                            + lastLines(first));
                }
                sleep(200);
            }
            return List.of();
        } finally {
            open.values().forEach(MemberClient::close);
        }
    }

    private LauncherException exitedDuringStart(MemberProcess mp) {
        return new LauncherException(mp.spec().process() + " exited during start-up with code "
                + mp.exitCode().orElse(-1) + lastLines(mp));
    }

    private String lastLines(MemberProcess mp) {
        List<String> lines = mp.outputSummary(3, 22);
        if (lines.isEmpty()) {
            return " (it printed nothing)";
        }
        StringBuilder b = new StringBuilder("; its last log lines:");
        lines.forEach(l -> b.append("\n  ").append(l));
        b.append("\n(full log: ").append(layout.logFile(mp.spec())).append(")");
        return b.toString();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LauncherException("interrupted");
        }
    }
}
