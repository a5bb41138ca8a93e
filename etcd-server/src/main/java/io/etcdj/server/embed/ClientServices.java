package io.etcdj.server.embed;

import io.grpc.HandlerRegistry;
import io.grpc.MethodDescriptor;
import io.grpc.ServerMethodDefinition;
import io.grpc.ServerServiceDefinition;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * The client port's gRPC services, each bound on the first call to one of its methods.
 *
 * <p>Binding a generated service builds its method descriptors, and with them loads and
 * initialises every request and response message class of the service: for the nine client
 * services some 330 classes (Auth alone over a hundred), ~3 MB of a member's resident memory and
 * part of its start-up, although most members only ever serve KV, Watch and Lease. The servers
 * therefore get {@link #registry registries} that bind a service when a call for it first arrives;
 * {@link #all} binds the rest when something needs every service (a metrics scrape, the JSON
 * gateway's routing table).
 */
final class ClientServices {
    /** Service name (as in a method's full name) to what binds it, in the order they are listed. */
    private final Map<String, Supplier<ServerServiceDefinition>> binders = new LinkedHashMap<>();
    private final Map<String, ServerServiceDefinition> bound = new ConcurrentHashMap<>();
    private final Consumer<ServerServiceDefinition> onBound;

    /** {@code onBound} hears of each service once, when it has been bound (before its first call runs). */
    ClientServices(Consumer<ServerServiceDefinition> onBound) {
        this.onBound = onBound;
    }

    /** Adds a service under its gRPC name (the generated {@code SERVICE_NAME}); not bound yet. */
    ClientServices add(String name, Supplier<ServerServiceDefinition> binder) {
        binders.put(name, binder);
        return this;
    }

    /** The service named {@code name}, bound now if it was not; null when there is no such service. */
    ServerServiceDefinition service(String name) {
        ServerServiceDefinition s = bound.get(name);
        if (s != null) {
            return s;
        }
        Supplier<ServerServiceDefinition> binder = binders.get(name);
        if (binder == null) {
            return null;
        }
        synchronized (this) {
            s = bound.get(name);
            if (s == null) {
                s = binder.get();
                if (!s.getServiceDescriptor().getName().equals(name)) {
                    throw new IllegalStateException("service " + name + " bound as " + s.getServiceDescriptor().getName());
                }
                onBound.accept(s);
                bound.put(name, s);
            }
            return s;
        }
    }

    /** Whether {@code name} has been bound (by a call, or by {@link #all}). */
    boolean isBound(String name) {
        return bound.containsKey(name);
    }

    /** Every service, binding those not bound yet, in the order they were added. */
    List<ServerServiceDefinition> all() {
        List<ServerServiceDefinition> out = new ArrayList<>(binders.size());
        for (String name : binders.keySet()) {
            out.add(service(name));
        }
        return out;
    }

    /**
     * A registry for one server, for its fallback registry (its own being empty): a method is
     * looked up in a map once its service has been bound for this server, with {@code intercept}
     * applied (each server has interceptors of its own).
     */
    HandlerRegistry registry(UnaryOperator<ServerServiceDefinition> intercept) {
        return new Registry(intercept);
    }

    private final class Registry extends HandlerRegistry {
        private final UnaryOperator<ServerServiceDefinition> intercept;
        private final Map<String, ServerMethodDefinition<?, ?>> methods = new ConcurrentHashMap<>();
        private final Set<String> servicesHere = new HashSet<>();

        Registry(UnaryOperator<ServerServiceDefinition> intercept) {
            this.intercept = intercept;
        }

        @Override
        public ServerMethodDefinition<?, ?> lookupMethod(String methodName, String authority) {
            ServerMethodDefinition<?, ?> m = methods.get(methodName);
            if (m != null) {
                return m;
            }
            String service = MethodDescriptor.extractFullServiceName(methodName);
            if (service == null || !binders.containsKey(service)) {
                return null;
            }
            bindHere(service);
            // null for a method the service does not have: the server answers UNIMPLEMENTED
            return methods.get(methodName);
        }

        private synchronized void bindHere(String service) {
            if (servicesHere.contains(service)) {
                return;
            }
            for (ServerMethodDefinition<?, ?> m : intercept.apply(service(service)).getMethods()) {
                methods.put(m.getMethodDescriptor().getFullMethodName(), m);
            }
            servicesHere.add(service);
        }
    }
}
