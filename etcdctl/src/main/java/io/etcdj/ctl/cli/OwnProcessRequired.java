package io.etcdj.ctl.cli;

/**
 * Thrown by {@link EtcdctlApp} before a command runs when a {@link EtcdctlApp.Placement} says it
 * must not run in this process: nothing was sent to the server yet, so the caller can run the same
 * command line again in a process of its own.
 */
public final class OwnProcessRequired extends RuntimeException {

    public OwnProcessRequired() {
        super("the command needs a process of its own", null, false, false);
    }
}
