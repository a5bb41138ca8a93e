package io.etcdj.harness;

import java.nio.file.Path;

/**
 * One etcd member under test, however it runs (forked JVM, real etcd binary, or in this JVM). Tests talk to
 * it only through {@link #endpoint()}; lifecycle calls keep the data dir so a restart sees the old state.
 */
public interface EtcdMember extends AutoCloseable {

    /** {@code 127.0.0.1:port} of the client listener (gRPC and HTTP share it). */
    String endpoint();

    /** {@code http://127.0.0.1:port}. */
    default String clientUrl() {
        return "http://" + endpoint();
    }

    Path dataDir();

    /** Which server this is, for messages: "ours" or "etcd 3.4". */
    String describe();

    /** Starts (or starts again on the same data dir and ports) and returns once clients are served. */
    void start() throws Exception;

    /** Graceful stop; the data dir stays. */
    void stop() throws Exception;

    /** The last lines the member logged, shown when a test fails. */
    String logTail();

    /** Stops if running and deletes the data dir. */
    @Override
    void close();
}
