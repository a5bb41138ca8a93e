package io.etcdj.cli;

/**
 * etcdctl's exit codes (cobrautl): the same numbers, including the two names that share 4 and 5.
 */
public final class ExitCodes {

    public static final int SUCCESS = 0;
    public static final int ERROR = 1;
    public static final int BAD_CONNECTION = 2;
    public static final int INVALID_INPUT = 3;
    public static final int BAD_FEATURE = 4;
    public static final int INTERRUPTED = 5;
    public static final int IO = 6;
    public static final int BAD_ARGS = 128;
    /** Shares its value with {@link #BAD_FEATURE} as in etcdctl. */
    public static final int CLUSTER_NOT_HEALTHY_LEGACY = 4;
    /** Shares its value with {@link #INTERRUPTED} as in etcdctl. */
    public static final int CLUSTER_NOT_HEALTHY = 5;

    private ExitCodes() {
    }
}
