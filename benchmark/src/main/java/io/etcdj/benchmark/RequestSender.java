package io.etcdj.benchmark;

/**
 * Sends request number {@code seq} for client {@code client} without blocking and reports its end
 * to {@code done}. Implementations may call {@code done} before returning.
 */
@FunctionalInterface
interface RequestSender {
    void send(int client, long seq, Completion done);
}
