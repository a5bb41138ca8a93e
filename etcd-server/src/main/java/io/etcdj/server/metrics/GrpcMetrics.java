package io.etcdj.server.metrics;

import com.google.protobuf.MessageLite;
import io.grpc.ForwardingServerCall;
import io.grpc.ForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerMethodDefinition;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Histogram;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * go-grpc-prometheus' server families, as etcd exports them: grpc_server_started_total,
 * grpc_server_handled_total (with grpc_code), grpc_server_msg_received_total,
 * grpc_server_msg_sent_total, each labelled grpc_type, grpc_service, grpc_method, and with
 * {@code --metrics=extensive} the grpc_server_handling_seconds histogram; plus etcd's own
 * etcd_server_client_requests_total and etcd_network_client_grpc_{sent,received}_bytes_total.
 * A service's methods get their children when the service is {@link #register registered}, which
 * the client port does when it binds the service (on its first call) and, for all of them, before
 * a scrape: so every method is exported at zero, as etcd does, and a call looks up its method's
 * children once.
 */
public final class GrpcMetrics implements ServerInterceptor {
    private static final Metadata.Key<String> CLIENT_API_VERSION = Metadata.Key.of("client-api-version", Metadata.ASCII_STRING_MARSHALLER);
    private static final String[] LABELS = {"grpc_type", "grpc_service", "grpc_method"};
    private final Families families;
    private final Map<String, MethodMetrics> methods = new ConcurrentHashMap<>();
    private final boolean extensive;

    /**
     * The interceptor for the client port's services, counting into {@code families} (the
     * member's); {@code extensiveMetrics} (--metrics=extensive) adds the handling-time histogram.
     */
    public GrpcMetrics(Families families, boolean extensiveMetrics) {
        this.families = families;
        this.extensive = extensiveMetrics;
        if (extensiveMetrics) {
            families.registerHandling();
        }
    }

    /** The interceptor for {@code services}, registered at once. */
    public GrpcMetrics(Families families, boolean extensiveMetrics, List<ServerServiceDefinition> services) {
        this(families, extensiveMetrics);
        services.forEach(this::register);
    }

    /**
     * Gives the methods of {@code service} their children (exported from now on, at zero until
     * called); calls of methods not registered pass uncounted. Registering again changes nothing.
     */
    public void register(ServerServiceDefinition service) {
        for (ServerMethodDefinition<?, ?> m : service.getMethods()) {
            MethodDescriptor<?, ?> md = m.getMethodDescriptor();
            methods.computeIfAbsent(md.getFullMethodName(), k -> new MethodMetrics(families, md, extensive));
        }
    }

    /** A member's families, in its registry; the handling histogram only once an interceptor asks for it. */
    public static final class Families {
        private final Metrics metrics;
        private final Counter started;
        private final Counter handled;
        private final Counter received;
        private final Counter sent;
        private final Histogram handling = Histogram.builder()
                .name("grpc_server_handling_seconds")
                .help("Histogram of response latency (seconds) of gRPC that had been application-level handled by the server.")
                .labelNames(LABELS).classicOnly().classicUpperBounds(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10)
                .withoutExemplars().build();
        private final Counter clientRequests;
        private final CounterDataPoint bytesReceived;
        private final CounterDataPoint bytesSent;
        private final Map<String, CounterDataPoint> clientVersions = new ConcurrentHashMap<>();
        private boolean handlingRegistered;

        Families(Metrics metrics) {
            this.metrics = metrics;
            started = metrics.counter("grpc_server_started_total", "Total number of RPCs started on the server.", LABELS);
            handled = metrics.counter("grpc_server_handled_total",
                    "Total number of RPCs completed on the server, regardless of success or failure.",
                    "grpc_type", "grpc_service", "grpc_method", "grpc_code");
            received = metrics.counter("grpc_server_msg_received_total",
                    "Total number of RPC stream messages received on the server.", LABELS);
            sent = metrics.counter("grpc_server_msg_sent_total", "Total number of gRPC stream messages sent by the server.", LABELS);
            clientRequests = metrics.counter("etcd_server_client_requests_total",
                    "The total number of client requests per client version.", "type", "client_api_version");
            bytesReceived = metrics.counter("etcd_network_client_grpc_received_bytes_total",
                    "The total number of bytes received from grpc clients.").labelValues();
            bytesSent = metrics.counter("etcd_network_client_grpc_sent_bytes_total",
                    "The total number of bytes sent to grpc clients.").labelValues();
        }

        private synchronized void registerHandling() {
            if (!handlingRegistered) {
                metrics.registry.register(handling);
                handlingRegistered = true;
            }
        }

        private CounterDataPoint clientRequests(boolean stream, String version) {
            String v = version == null ? "unknown" : version;
            return clientVersions.computeIfAbsent((stream ? "stream/" : "unary/") + v,
                    k -> clientRequests.labelValues(stream ? "stream" : "unary", v));
        }
    }

    /** One method's children, bound once. */
    private static final class MethodMetrics {
        final CounterDataPoint started;
        final CounterDataPoint received;
        final CounterDataPoint sent;
        final CounterDataPoint[] handled = new CounterDataPoint[Status.Code.values().length];
        final DistributionDataPoint handling;
        final boolean stream;

        MethodMetrics(Families f, MethodDescriptor<?, ?> md, boolean extensive) {
            String type = type(md.getType());
            String service = md.getServiceName();
            String method = md.getBareMethodName();
            started = f.started.labelValues(type, service, method);
            received = f.received.labelValues(type, service, method);
            sent = f.sent.labelValues(type, service, method);
            for (Status.Code c : Status.Code.values()) {
                handled[c.ordinal()] = f.handled.labelValues(type, service, method, codeName(c));
            }
            handling = extensive ? f.handling.labelValues(type, service, method) : null;
            stream = md.getType() != MethodDescriptor.MethodType.UNARY;
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
        MethodMetrics mm = methods.get(call.getMethodDescriptor().getFullMethodName());
        if (mm == null) {
            return next.startCall(call, headers);
        }
        long start = System.nanoTime();
        mm.started.inc();
        families.clientRequests(mm.stream, headers.get(CLIENT_API_VERSION)).inc();
        ServerCall<Q, R> counting = new ForwardingServerCall.SimpleForwardingServerCall<>(call) {
            @Override
            public void sendMessage(R message) {
                mm.sent.inc();
                if (message instanceof MessageLite m) {
                    families.bytesSent.inc(m.getSerializedSize());
                }
                super.sendMessage(message);
            }

            @Override
            public void close(Status status, Metadata trailers) {
                mm.handled[status.getCode().ordinal()].inc();
                if (mm.handling != null) {
                    mm.handling.observe((System.nanoTime() - start) / 1e9);
                }
                super.close(status, trailers);
            }
        };
        return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(next.startCall(counting, headers)) {
            @Override
            public void onMessage(Q message) {
                mm.received.inc();
                if (message instanceof MessageLite m) {
                    families.bytesReceived.inc(m.getSerializedSize());
                }
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
}
