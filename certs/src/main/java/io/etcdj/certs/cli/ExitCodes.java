package io.etcdj.certs.cli;

/** Exit codes of etcd-certs. */
final class ExitCodes {
    static final int OK = 0;
    /** Bad material or input: missing/unreadable/malformed file, mismatch, expired, wrong CA. */
    static final int ERROR = 1;
    /** Wrong flags or arguments (picocli's usage error). */
    static final int USAGE = 2;

    private ExitCodes() {
    }
}
