package io.etcdj.server.metrics;

import io.grpc.ForwardingServerCall;
import io.grpc.ForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;

/**
 * go-grpc-prometheus' server families, as etcd exports them: grpc_server_started_total,
 * grpc_server_handled_total (with grpc_code), grpc_server_msg_received_total,
 * grpc_server_msg_sent_total, each labelled grpc_type, grpc_service, grpc_method; with
 * {@code --metrics=extensive} also the grpc_server_handling_seconds histogram.
 */
public final class GrpcMetrics implements ServerInterceptor {
    private static final double[] BUCKETS = {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};
    private static final Map<String, LongAdder> STARTED = new ConcurrentSkipListMap<>();
    private static final Map<String, LongAdder> HANDLED = new ConcurrentSkipListMap<>();
    private static final Map<String, LongAdder> RECEIVED = new ConcurrentSkipListMap<>();
    private static final Map<String, LongAdder> SENT = new ConcurrentSkipListMap<>();
    private static final Map<String, Hist> HANDLING = new ConcurrentHashMap<>();
    private static volatile boolean extensive;

    /** The interceptor for the client port's services; {@code extensiveMetrics}: --metrics=extensive. */
    public GrpcMetrics(boolean extensiveMetrics) {
        extensive = extensiveMetrics;
    }

    private static final class Hist {
        final AtomicLongArray counts = new AtomicLongArray(BUCKETS.length);
        final LongAdder count = new LongAdder();
        final DoubleAdder sum = new DoubleAdder();

        void observe(double s) {
            for (int i = 0; i < BUCKETS.length; i++) {
                if (s <= BUCKETS[i]) {
                    counts.incrementAndGet(i);
                }
            }
            count.increment();
            sum.add(s);
        }
    }

    private static String type(MethodDescriptor.MethodType t) {
        return switch (t) {
            case UNARY -> "unary";
            case CLIENT_STREAMING -> "client_stream";
            case SERVER_STREAMING -> "server_stream";
            default -> "bidi_stream";
        };
    }

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
        MethodDescriptor<Q, R> md = call.getMethodDescriptor();
        String labels = "grpc_method=\"" + md.getBareMethodName() + "\",grpc_service=\"" + md.getServiceName()
                + "\",grpc_type=\"" + type(md.getType()) + "\"";
        long start = System.nanoTime();
        inc(STARTED, labels);
        ServerCall<Q, R> counting = new ForwardingServerCall.SimpleForwardingServerCall<>(call) {
            @Override
            public void sendMessage(R message) {
                inc(SENT, labels);
                super.sendMessage(message);
            }

            @Override
            public void close(Status status, Metadata trailers) {
                inc(HANDLED, "grpc_code=\"" + codeName(status.getCode()) + "\"," + labels);
                if (extensive) {
                    HANDLING.computeIfAbsent(labels, k -> new Hist()).observe((System.nanoTime() - start) / 1e9);
                }
                super.close(status, trailers);
            }
        };
        return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(next.startCall(counting, headers)) {
            @Override
            public void onMessage(Q message) {
                inc(RECEIVED, labels);
                super.onMessage(message);
            }
        };
    }

    /** Go's names for the codes (grpc-go's codes.Code.String()). */
    private static String codeName(Status.Code c) {
        return switch (c) {
            case OK -> "OK";
            case CANCELLED -> "Canceled";
            case UNKNOWN -> "Unknown";
            case INVALID_ARGUMENT -> "InvalidArgument";
            case DEADLINE_EXCEEDED -> "DeadlineExceeded";
            case NOT_FOUND -> "NotFound";
            case ALREADY_EXISTS -> "AlreadyExists";
            case PERMISSION_DENIED -> "PermissionDenied";
            case RESOURCE_EXHAUSTED -> "ResourceExhausted";
            case FAILED_PRECONDITION -> "FailedPrecondition";
            case ABORTED -> "Aborted";
            case OUT_OF_RANGE -> "OutOfRange";
            case UNIMPLEMENTED -> "Unimplemented";
            case INTERNAL -> "Internal";
            case UNAVAILABLE -> "Unavailable";
            case DATA_LOSS -> "DataLoss";
            case UNAUTHENTICATED -> "Unauthenticated";
        };
    }

    private static void inc(Map<String, LongAdder> m, String labels) {
        m.computeIfAbsent(labels, k -> new LongAdder()).increment();
    }

    static void render(StringBuilder sb) {
        family(sb, "grpc_server_started_total", "Total number of RPCs started on the server.", STARTED);
        family(sb, "grpc_server_handled_total", "Total number of RPCs completed on the server, regardless of success or failure.", HANDLED);
        family(sb, "grpc_server_msg_received_total", "Total number of RPC stream messages received on the server.", RECEIVED);
        family(sb, "grpc_server_msg_sent_total", "Total number of gRPC stream messages sent by the server.", SENT);
        if (!extensive) {
            return;
        }
        sb.append("# HELP grpc_server_handling_seconds Histogram of response latency (seconds) of gRPC that had been "
                + "application-level handled by the server.\n# TYPE grpc_server_handling_seconds histogram\n");
        new ConcurrentSkipListMap<>(HANDLING).forEach((labels, h) -> {
            for (int i = 0; i < BUCKETS.length; i++) {
                sb.append("grpc_server_handling_seconds_bucket{").append(labels).append(",le=\"").append(le(BUCKETS[i]))
                        .append("\"} ").append(h.counts.get(i)).append('\n');
            }
            sb.append("grpc_server_handling_seconds_bucket{").append(labels).append(",le=\"+Inf\"} ").append(h.count.sum()).append('\n')
                    .append("grpc_server_handling_seconds_sum{").append(labels).append("} ").append(h.sum.sum()).append('\n')
                    .append("grpc_server_handling_seconds_count{").append(labels).append("} ").append(h.count.sum()).append('\n');
        });
    }

    private static String le(double d) {
        String s = Double.toString(d);
        return s.endsWith(".0") ? s.substring(0, s.length() - 2) : s;
    }

    private static void family(StringBuilder sb, String name, String help, Map<String, LongAdder> values) {
        sb.append("# HELP ").append(name).append(' ').append(help).append('\n')
                .append("# TYPE ").append(name).append(" counter\n");
        values.forEach((labels, v) -> sb.append(name).append('{').append(labels).append("} ").append(v.sum()).append('\n'));
    }
}
