package io.etcdj.ctl.cli;

import java.util.function.IntConsumer;

/**
 * SIGINT in a process of its own. etcdctl's lock and elect answer Ctrl-C themselves (cancel, or
 * unlock and exit 0); every other command dies by it. A Go etcdctl is at its command within a few
 * milliseconds of its start, a JVM a few hundred later: a signal that comes while the command is
 * not yet known is held until it is (the command line parsed), then answered as that command
 * answers it. A taking command gets it at its next take; anything else ends the process as the JVM
 * would have, with 128 + 2.
 *
 * <p>Signals are the process's, so this state is too: one instance per JVM, behind
 * {@link Interruption}.
 */
final class OwnProcessInterrupt {
    static final int SIGINT = 2;

    private final CommandKnown command;
    private final IntConsumer exit;
    private final sun.misc.SignalHandler handler = sig -> signalled();
    private boolean pending;
    private Runnable taker;

    /**
     * @param commandKnown false from the start of main: signals wait for {@link #commandKnown}; true
     *                     where no command line is being parsed (the shell, an in-JVM caller)
     * @param exit         ends the process with a code (System.exit; a test's recorder)
     */
    OwnProcessInterrupt(boolean commandKnown, IntConsumer exit) {
        this.command = new CommandKnown(commandKnown);
        this.exit = exit;
    }

    /** The handler to install for SIGINT: {@link #signalled}. */
    sun.misc.SignalHandler handler() {
        return handler;
    }

    /** The command about to run takes SIGINT for the rest of the process (lock, elect) or not. Only the first call counts. */
    void commandKnown(boolean takesInterrupt) {
        command.set(takesInterrupt);
    }

    /** The signal handler's body: runs the taker, holds the signal for the next one, or ends the process. */
    void signalled() {
        boolean takes = command.awaitTakes();
        Runnable run;
        synchronized (this) {
            run = taker;
            if (run == null && takes) {
                pending = true;
                return;
            }
        }
        if (run != null) {
            run.run();
        } else {
            exit.accept(128 + SIGINT);
        }
    }

    /**
     * {@code onStop} takes the signal until the handle is closed; a signal held for this command runs
     * it at once.
     */
    AutoCloseable take(Runnable onStop) {
        boolean held;
        synchronized (this) {
            taker = onStop;
            held = pending;
            pending = false;
        }
        if (held) {
            onStop.run();
        }
        return () -> {
            synchronized (this) {
                if (taker == onStop) {
                    taker = null;
                }
            }
        };
    }
}
