package io.etcdj.server.apply;

import com.google.protobuf.Message;
import io.etcdj.server.error.EtcdException;

/**
 * The outcome of applying one request: the response (without its header) and the store revision
 * to report, or the etcd error it failed with. Failures are values: they are deterministic and
 * every member reaches the same one.
 */
public record ApplyResult(Message response, long revision, EtcdException error) {
    public static ApplyResult ok(Message response, long revision) {
        return new ApplyResult(response, revision, null);
    }

    public static ApplyResult failed(EtcdException error) {
        return new ApplyResult(null, 0, error);
    }
}
