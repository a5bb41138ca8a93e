package io.etcdj.launcher;

/** Every exit code the launcher uses, in one place. */
public final class ExitCodes {
    public static final int OK = 0;
    /** Something failed: a member would not start, a port is taken, a request was refused. */
    public static final int FAILURE = 1;
    /** Bad command-line usage (picocli's own convention). */
    public static final int USAGE = 2;
    /** The cluster file is invalid. */
    public static final int BAD_CLUSTER_FILE = 3;
    /** The command needs a running cluster and none is running. */
    public static final int NOT_RUNNING = 4;
    /** Interrupted by SIGINT (128 + 2), as shells report it. */
    public static final int INTERRUPTED = 130;

    private ExitCodes() {}
}
