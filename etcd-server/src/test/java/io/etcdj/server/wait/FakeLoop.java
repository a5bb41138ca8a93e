package io.etcdj.server.wait;

import java.util.ArrayList;
import java.util.List;

/** An event loop for tests: takes tasks into a list, and runs a batch at once when told the caller is on its thread. */
public final class FakeLoop implements InlineExecutor {
    /** The tasks handed to the loop, not yet run. */
    public final List<Runnable> queued = new ArrayList<>();
    /** Whether the caller is on the loop's own thread. */
    public boolean ownThread;

    @Override
    public void execute(Runnable task) {
        queued.add(task);
    }

    @Override
    public boolean runIfOwnThread(Runnable batch) {
        if (!ownThread) {
            return false;
        }
        batch.run();
        return true;
    }
}
