package io.etcdj.ctl.cli;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Whether an invocation's command answers SIGINT itself (etcdctl's lock and elect), once the command
 * is known: a signal that comes while the command line is still being parsed waits for it here, as
 * a Go etcdctl would already be at its command.
 */
final class CommandKnown {
    /** How long a signal waits for the command to be known before it is answered as by any command. */
    private static final long WAIT_MILLIS = 5_000;

    private final CountDownLatch known;
    private volatile boolean takes;

    /** @param already true where no command line is being parsed: nothing takes the signal until a command says so */
    CommandKnown(boolean already) {
        known = new CountDownLatch(already ? 0 : 1);
    }

    /** The command takes SIGINT (lock, elect) or not. Only the first call counts. */
    synchronized void set(boolean takesInterrupt) {
        if (known.getCount() > 0) {
            takes = takesInterrupt;
            known.countDown();
        }
    }

    /** Waits until the command is known (at most a few seconds), then whether it takes SIGINT. */
    boolean awaitTakes() {
        try {
            known.await(WAIT_MILLIS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return takes;
    }
}
