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

/**
 * The JSON gateway's routing table, read from the google.api.http options in the protos, so the
 * paths are declared once, next to the methods.
 */
public final class GatewayRoutes {
    record Route(MethodDescriptor<Object, Object> method, Descriptors.MethodDescriptor proto) {
    }

    private final Map<String, Route> byPath = new HashMap<>();

    @SuppressWarnings("unchecked")
    public GatewayRoutes(List<ServerServiceDefinition> services) {
        for (ServerServiceDefinition s : services) {
            for (ServerMethodDefinition<?, ?> m : s.getMethods()) {
                MethodDescriptor<Object, Object> md = (MethodDescriptor<Object, Object>) m.getMethodDescriptor();
                if (!(md.getSchemaDescriptor() instanceof ProtoMethodDescriptorSupplier sup)) {
                    continue;
                }
                Descriptors.MethodDescriptor proto = sup.getMethodDescriptor();
                HttpRule rule = proto.getOptions().getExtension(AnnotationsProto.http);
                add(rule, md, proto);
                for (HttpRule extra : rule.getAdditionalBindingsList()) {
                    add(extra, md, proto);
                }
            }
        }
    }

    private void add(HttpRule rule, MethodDescriptor<Object, Object> md, Descriptors.MethodDescriptor proto) {
        if (!rule.getPost().isEmpty()) {
            byPath.put(rule.getPost(), new Route(md, proto));
        }
    }

    /** The route for a path; /v3beta/ is an alias of /v3/, as in etcd 3.4 to 3.6. */
    Route find(String path) {
        if (path.startsWith("/v3beta/")) {
            path = "/v3/" + path.substring("/v3beta/".length());
        }
        return byPath.get(path);
    }
}
