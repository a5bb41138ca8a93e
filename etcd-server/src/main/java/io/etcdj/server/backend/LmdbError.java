package io.etcdj.server.backend;

/** An LMDB call that returned an error: the function, LMDB's result code and its text for it. */
final class LmdbError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int resultCode;

    LmdbError(String function, int resultCode, String text) {
        super(function + ": " + text + " (" + resultCode + ")");
        this.resultCode = resultCode;
    }

    /** LMDB's result code: one of its own (negative) or an errno. */
    int resultCode() {
        return resultCode;
    }
}
