package io.etcdj.cli;

/**
 * Every exit code of every tool of the project, in one table. etcdctl and etcdutl use etcd's
 * (cobrautl's) numbers, including the two names that share 4 and 5; cluster-launcher, etcd-certs and
 * benchmark are our own tools and follow picocli's convention ({@link #USAGE} = 2 for a bad command
 * line), where etcd's 2 means a bad connection. A number therefore means what the tool's own table
 * in its docs says; the names below say which tool uses it.
 */
public final class ExitCodes {

    /** Every tool: the command did what was asked. */
    public static final int SUCCESS = 0;
    /** Every tool: the command failed (etcd's ExitError). */
    public static final int ERROR = 1;
    /** etcdctl: no endpoint could be reached (cobrautl's ExitBadConnection). */
    public static final int BAD_CONNECTION = 2;
    /** cluster-launcher, etcd-certs, benchmark: the command line is wrong (picocli's usage error). */
    public static final int USAGE = 2;
    /** etcdctl: the input cannot be used (cobrautl's ExitInvalidInput). */
    public static final int INVALID_INPUT = 3;
    /** cluster-launcher: the cluster file is invalid. */
    public static final int BAD_CLUSTER_FILE = 3;
    /** etcdctl: the server does not support what was asked (cobrautl's ExitBadFeature). */
    public static final int BAD_FEATURE = 4;
    /** cluster-launcher: the command needs a running cluster and none is running. */
    public static final int NOT_RUNNING = 4;
    /** etcdctl: interrupted (cobrautl's ExitInterrupted). */
    public static final int INTERRUPTED = 5;
    /** etcdctl: an input or output failed (cobrautl's ExitIO). */
    public static final int IO = 6;
    /** etcdctl, etcdutl: wrong arguments (cobrautl's ExitBadArgs). */
    public static final int BAD_ARGS = 128;
    /** Shares its value with {@link #BAD_FEATURE} as in etcdctl. */
    public static final int CLUSTER_NOT_HEALTHY_LEGACY = 4;
    /** Shares its value with {@link #INTERRUPTED} as in etcdctl. */
    public static final int CLUSTER_NOT_HEALTHY = 5;

    private ExitCodes() {
    }
}
