package io.etcdj.ctl.cli;

import java.util.concurrent.CountDownLatch;

/**
 * The "stop" of one invocation in a shared JVM. A direct run stops when its JVM gets Ctrl-C or
 * SIGTERM; in the warm server many invocations share a JVM, so each gets a latch the server counts
 * down when that invocation's caller is signalled. Threads the invocation starts inherit it.
 */
public final class Interruption {

    private static final InheritableThreadLocal<CountDownLatch> CURRENT = new InheritableThreadLocal<>();

    private Interruption() {
    }

    /** The latch of the invocation running on this thread, or null in a process of its own. */
    public static CountDownLatch current() {
        return CURRENT.get();
    }

    /** Marks the calling thread (and threads it starts from now on) as running the invocation {@code stop} ends. */
    public static void bind(CountDownLatch stop) {
        CURRENT.set(stop);
    }

    /**
     * Runs {@code onStop} once this invocation is asked to stop: Ctrl-C or SIGTERM in a process of
     * its own (the signal is taken, so the command can finish its work and exit as etcdctl does,
     * e.g. unlocking and exiting 0), the caller's signal in the warm server. Closing the handle
     * gives the signals back.
     */
    public static AutoCloseable onStop(Runnable onStop) {
        CountDownLatch perCall = current();
        if (perCall != null) {
            Thread waiter = new Thread(() -> {
                try {
                    perCall.await();
                    onStop.run();
                } catch (InterruptedException done) {
                    // the command ended first
                }
            }, "interruption");
            waiter.setDaemon(true);
            waiter.start();
            return waiter::interrupt;
        }
        sun.misc.SignalHandler handler = sig -> onStop.run();
        sun.misc.Signal interrupt = new sun.misc.Signal("INT");
        sun.misc.Signal terminate = new sun.misc.Signal("TERM");
        sun.misc.SignalHandler previousInterrupt = sun.misc.Signal.handle(interrupt, handler);
        sun.misc.SignalHandler previousTerminate = sun.misc.Signal.handle(terminate, handler);
        return () -> {
            sun.misc.Signal.handle(interrupt, previousInterrupt);
            sun.misc.Signal.handle(terminate, previousTerminate);
        };
    }
}
