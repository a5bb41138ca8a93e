package io.etcdj.harness;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Stops what a test started under its own directory: a warm server, and clients a failure left behind. */
public final class StrayProcesses {
    private StrayProcesses() {
    }

    /** Every process whose command line names {@code dir}: TERM, then KILL after 10 s. */
    public static void stopAllUnder(Path dir) {
        String marker = dir.toString();
        List<ProcessHandle> ours = ProcessHandle.allProcesses()
                .filter(p -> p.info().arguments().map(a -> String.join(" ", a).contains(marker)).orElse(false))
                .toList();
        ours.forEach(ProcessHandle::destroy);
        for (ProcessHandle p : ours) {
            try {
                p.onExit().get(10, TimeUnit.SECONDS);
            } catch (Exception e) {
                p.destroyForcibly();
            }
        }
    }
}
