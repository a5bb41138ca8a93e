package io.etcdj.server.wal;

/** Thrown by {@link SimulatedDisk} at the operation chosen to crash; the process is "dead" after it. */
public final class SimulatedCrash extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public SimulatedCrash(String message) {
        super(message);
    }
}
