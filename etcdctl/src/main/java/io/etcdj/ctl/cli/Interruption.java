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
}
