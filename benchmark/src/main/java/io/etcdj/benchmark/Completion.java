package io.etcdj.benchmark;

/** Told exactly once when a benchmark request finishes. */
interface Completion {
    void succeeded();

    void failed(Throwable error);
}
