package io.etcdj.launcher.cli;

import io.etcdj.launcher.supervisor.ClusterState;
import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Members whose launcher died without stopping them (it was killed with SIGKILL). A recorded pid
 * counts only if that process still names the member's data dir on its command line, so a
 * reused pid is never touched.
 */
final class Leftovers {
    private Leftovers() {}

    record Leftover(ClusterState.MemberState member, ProcessHandle process) {}

    static List<Leftover> find(ClusterState state) {
        if (state.supervisorAlive()) {
            return List.of();
        }
        return state.members().stream()
                .filter(m -> m.pid() > 0)
                .flatMap(m -> ProcessHandle.of(m.pid()).stream()
                        .filter(h -> h.isAlive() && h.info().arguments()
                                .map(a -> String.join(" ", a).contains(m.dataDir())).orElse(false))
                        .map(h -> new Leftover(m, h)))
                .toList();
    }

    /** SIGTERM, and SIGKILL for those still there after 10 seconds. */
    static void stop(List<Leftover> leftovers, PrintStream out) {
        leftovers.forEach(l -> l.process().destroy());
        for (Leftover l : leftovers) {
            try {
                l.process().onExit().get(10, TimeUnit.SECONDS);
            } catch (Exception e) {
                l.process().destroyForcibly();
                l.process().onExit().join();
            }
            out.println("stopped leftover " + l.member().process() + " (pid " + l.member().pid() + ")");
        }
    }

    static String describe(List<Leftover> leftovers) {
        return String.join(", ", leftovers.stream()
                .map(l -> l.member().process() + " (pid " + l.member().pid() + ")").toList());
    }
}
