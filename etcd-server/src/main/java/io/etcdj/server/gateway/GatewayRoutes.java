package io.etcdj.server.gateway;

import com.google.api.AnnotationsProto;
import com.google.api.HttpRule;
import com.google.protobuf.Descriptors;
import io.grpc.MethodDescriptor;
import io.grpc.ServerMethodDefinition;
import io.grpc.ServerServiceDefinition;
import io.grpc.protobuf.ProtoMethodDescriptorSupplier;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The JSON gateway's routing table, read from the google.api.http options in the protos, so the
 * paths are declared once, next to the methods.
 *
 * <p>The table is read on the first gateway request, not when the listeners start: reading it
 * builds the protos' descriptors (rpc.proto and everything it imports, ~200 classes and their
 * objects), which a member whose clients all speak gRPC never needs, and which cost every member
 * resident memory and start-up time.
 */
public final class GatewayRoutes {
    record Route(MethodDescriptor<Object, Object> method, Descriptors.MethodDescriptor proto) {
    }

    private final Supplier<List<ServerServiceDefinition>> services;
    /** Path to route; null until the first lookup. */
    private volatile Map<String, Route> byPath;

    /** Routes to {@code services}, asked for on the first lookup (they may be bound only then). */
    public GatewayRoutes(Supplier<List<ServerServiceDefinition>> services) {
        this.services = services;
    }

    /** Whether the table has been read (by a lookup); for tests. */
    boolean loaded() {
        return byPath != null;
    }

    private Map<String, Route> table() {
        Map<String, Route> t = byPath;
        if (t == null) {
            synchronized (this) {
                t = byPath;
                if (t == null) {
                    t = read(services.get());
                    byPath = t;
                }
            }
        }
        return t;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Route> read(List<ServerServiceDefinition> services) {
        Map<String, Route> byPath = new HashMap<>();
        for (ServerServiceDefinition s : services) {
            for (ServerMethodDefinition<?, ?> m : s.getMethods()) {
                MethodDescriptor<Object, Object> md = (MethodDescriptor<Object, Object>) m.getMethodDescriptor();
                if (!(md.getSchemaDescriptor() instanceof ProtoMethodDescriptorSupplier sup)) {
                    continue;
                }
                Descriptors.MethodDescriptor proto = sup.getMethodDescriptor();
                HttpRule rule = proto.getOptions().getExtension(AnnotationsProto.http);
                add(byPath, rule, md, proto);
                for (HttpRule extra : rule.getAdditionalBindingsList()) {
                    add(byPath, extra, md, proto);
                }
            }
        }
        return Map.copyOf(byPath);
    }

    private static void add(Map<String, Route> byPath, HttpRule rule, MethodDescriptor<Object, Object> md,
            Descriptors.MethodDescriptor proto) {
        if (!rule.getPost().isEmpty()) {
            byPath.put(rule.getPost(), new Route(md, proto));
        }
    }

    /** The route for a path; /v3beta/ is an alias of /v3/, as in etcd 3.4 to 3.6. */
    Route find(String path) {
        if (path.startsWith("/v3beta/")) {
            path = "/v3/" + path.substring("/v3beta/".length());
        }
        return table().get(path);
    }
}
