package io.etcdj.server.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.api.etcdserverpb.KVGrpc;
import io.etcdj.api.etcdserverpb.LeaseGrpc;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class GatewayRoutesTest {
    private final AtomicInteger asked = new AtomicInteger();
    private final GatewayRoutes routes = new GatewayRoutes(() -> {
        asked.incrementAndGet();
        return List.of(new KVGrpc.KVImplBase() { }.bindService(), new LeaseGrpc.LeaseImplBase() { }.bindService());
    });

    @Test
    void servicesAndDescriptorsAreReadOnTheFirstLookupOnly() {
        assertFalse(routes.loaded(), "building the routes must not read the protos' descriptors");
        assertEquals(0, asked.get(), "nor bind the services");
        assertEquals("etcdserverpb.KV/Put", routes.find("/v3/kv/put").method().getFullMethodName());
        assertTrue(routes.loaded());
        routes.find("/v3/kv/range");
        routes.find("/v3/nothing");
        assertEquals(1, asked.get());
    }

    @Test
    void pathsFromTheHttpOptionsIncludingAdditionalBindings() {
        assertEquals("etcdserverpb.KV/Range", routes.find("/v3/kv/range").method().getFullMethodName());
        assertEquals("Range", routes.find("/v3/kv/range").proto().getName());
        // LeaseRevoke is bound at /v3/lease/revoke and, as an additional binding, at /v3/kv/lease/revoke
        assertEquals("etcdserverpb.Lease/LeaseRevoke", routes.find("/v3/lease/revoke").method().getFullMethodName());
        assertEquals("etcdserverpb.Lease/LeaseRevoke", routes.find("/v3/kv/lease/revoke").method().getFullMethodName());
    }

    @Test
    void v3betaIsAnAliasAndUnknownPathsHaveNoRoute() {
        assertEquals("etcdserverpb.KV/Txn", routes.find("/v3beta/kv/txn").method().getFullMethodName());
        assertNull(routes.find("/v3/kv/nothing"));
        assertNull(routes.find("/v3/watch"), "Watch is not among these services");
    }
}
