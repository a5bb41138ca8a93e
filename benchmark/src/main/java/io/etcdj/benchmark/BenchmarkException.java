package io.etcdj.benchmark;

/** Bad input or an unusable setup, reported to the user as one line and exit code 1. */
final class BenchmarkException extends RuntimeException {
    BenchmarkException(String message) {
        super(message);
    }
}
