package io.etcdj.etcdutl;

/** etcdutl's exit codes (those of etcd's command-line tools). */
final class ExitCodes {
    static final int SUCCESS = 0;
    static final int ERROR = 1;
    /** A valid flag with a value the command does not support (e.g. an output format). */
    static final int BAD_FEATURE = 4;
    static final int BAD_ARGS = 128;

    private ExitCodes() {
    }
}
