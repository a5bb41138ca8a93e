package io.etcdj.server.etcdserver;

/** Stopping the member's own loop threads. */
final class Threads {
    /** How long stopping waits for a loop thread (or a Raft turn run by another thread) to end. */
    static final long JOIN_MILLIS = 5000;

    private Threads() {
    }

    /** Interrupts a loop thread and waits (bounded) for it to finish. */
    static void stop(Thread t) {
        t.interrupt();
        try {
            t.join(JOIN_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
