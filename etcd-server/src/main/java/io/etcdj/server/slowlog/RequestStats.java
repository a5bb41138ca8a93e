package io.etcdj.server.slowlog;

import io.etcdj.api.etcdserverpb.DeleteRangeRequest;
import io.etcdj.api.etcdserverpb.DeleteRangeResponse;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.api.etcdserverpb.PutResponse;
import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.api.etcdserverpb.RangeResponse;
import io.etcdj.api.etcdserverpb.RequestOp;
import io.etcdj.api.etcdserverpb.TxnRequest;
import io.etcdj.api.etcdserverpb.TxnResponse;
import io.etcdj.cli.GoDuration;
import io.etcdj.server.log.Log;
import io.etcdj.server.log.LogSink;
import io.grpc.ForwardingServerCall;
import io.grpc.ForwardingServerCallListener;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.net.SocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * etcd's "request stats" warning for unary gRPC requests slower than
 * --warning-unary-request-duration: start time, time spent, the client's address, the method,
 * request and response counts and sizes as etcd counts them, and the request's text with put
 * values replaced by their size. Streams are not timed, as in etcd.
 */
public final class RequestStats implements ServerInterceptor {
    /** The member's logger (its sink, see MemberContext). */
    private final Log log;

    private final Duration threshold;

    public RequestStats(Duration threshold, LogSink logs) {
        this.log = logs.logger("v3rpc/interceptor");
        this.threshold = threshold;
    }

    @Override
    public <Q, A> ServerCall.Listener<Q> interceptCall(ServerCall<Q, A> call, Metadata headers, ServerCallHandler<Q, A> next) {
        if (call.getMethodDescriptor().getType() != MethodDescriptor.MethodType.UNARY) {
            return next.startCall(call, headers);
        }
        long start = System.nanoTime();
        Object[] exchanged = new Object[2];
        ServerCall<Q, A> timed = new ForwardingServerCall.SimpleForwardingServerCall<>(call) {
            @Override
            public void sendMessage(A message) {
                exchanged[1] = message;
                super.sendMessage(message);
            }

            @Override
            public void close(Status status, Metadata trailers) {
                try {
                    long took = System.nanoTime() - start;
                    if (took > threshold.toNanos()) {
                        // The wall-clock start, derived only for a request slow enough to log.
                        log(Instant.now().minusNanos(took), took, call, exchanged[0], exchanged[1]);
                    }
                } catch (RuntimeException e) {
                    log.warn("request stats", e, "time spent", GoDuration.format(System.nanoTime() - start), "format-error",
                            String.valueOf(e));
                } finally {
                    super.close(status, trailers);
                }
            }
        };
        return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(next.startCall(timed, headers)) {
            @Override
            public void onMessage(Q message) {
                exchanged[0] = message;
                super.onMessage(message);
            }
        };
    }

    private void log(Instant startTime, long took, ServerCall<?, ?> call, Object req, Object resp) {
        SocketAddress remote = call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR);
        Counts c = counts(req, resp);
        log.warn("request stats", "start time", startTime.toString(), "time spent", GoDuration.format(took),
                "remote", remote == null ? "No remote client info." : remote.toString().replaceFirst("^/", ""),
                "response type", "/" + call.getMethodDescriptor().getFullMethodName(),
                "request count", c.reqCount(), "request size", c.reqSize(), "response count", c.respCount(),
                "response size", c.respSize(), "request content", c.content());
    }

    /** etcd's counting: what a request asks for and what its answer holds, per request kind. */
    record Counts(long reqCount, long reqSize, long respCount, long respSize, String content) {
    }

    static Counts counts(Object req, Object resp) {
        if (req instanceof RangeRequest r && resp instanceof RangeResponse a) {
            return new Counts(0, r.getSerializedSize(), a.getCount(), a.getSerializedSize(), GoText.of(r));
        }
        if (req instanceof PutRequest r && resp instanceof PutResponse a) {
            return new Counts(1, r.getSerializedSize(), 0, a.getSerializedSize(), GoText.of(r));
        }
        if (req instanceof DeleteRangeRequest r && resp instanceof DeleteRangeResponse a) {
            return new Counts(0, r.getSerializedSize(), a.getDeleted(), a.getSerializedSize(), GoText.of(r));
        }
        if (req instanceof TxnRequest r && resp instanceof TxnResponse a) {
            List<RequestOp> ops = a.getSucceeded() ? r.getSuccessList() : r.getFailureList();
            long size = 0;
            for (RequestOp op : ops) {
                size += op.getSerializedSize();
            }
            return new Counts(ops.size(), size, 0, a.getSerializedSize(), GoText.of(r));
        }
        return new Counts(-1, -1, -1, -1, "");
    }
}
