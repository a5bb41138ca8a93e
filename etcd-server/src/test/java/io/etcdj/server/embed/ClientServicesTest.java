package io.etcdj.server.embed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.api.etcdserverpb.ClusterGrpc;
import io.etcdj.api.etcdserverpb.KVGrpc;
import io.etcdj.api.etcdserverpb.LeaseGrpc;
import io.etcdj.api.etcdserverpb.MemberListRequest;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.api.etcdserverpb.PutResponse;
import io.etcdj.api.etcdserverpb.WatchGrpc;
import io.grpc.BindableService;
import io.grpc.HandlerRegistry;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class ClientServicesTest {
    private final Map<String, AtomicInteger> binds = new ConcurrentHashMap<>();
    private final List<String> heard = new ArrayList<>();
    private final ClientServices services = new ClientServices(s -> {
        synchronized (heard) {
            heard.add(s.getServiceDescriptor().getName());
        }
    })
            .add(KVGrpc.SERVICE_NAME, counted(KVGrpc.SERVICE_NAME, new Kv()))
            .add(LeaseGrpc.SERVICE_NAME, counted(LeaseGrpc.SERVICE_NAME, new LeaseGrpc.LeaseImplBase() { }))
            .add(WatchGrpc.SERVICE_NAME, counted(WatchGrpc.SERVICE_NAME, new WatchGrpc.WatchImplBase() { }));

    private static final class Kv extends KVGrpc.KVImplBase {
        @Override
        public void put(PutRequest r, StreamObserver<PutResponse> out) {
            out.onNext(PutResponse.newBuilder().build());
            out.onCompleted();
        }
    }

    private Supplier<ServerServiceDefinition> counted(String name, BindableService s) {
        return () -> {
            binds.computeIfAbsent(name, k -> new AtomicInteger()).incrementAndGet();
            return s.bindService();
        };
    }

    private int bindsOf(String name) {
        AtomicInteger n = binds.get(name);
        return n == null ? 0 : n.get();
    }

    @Test
    void nothingIsBoundUntilAskedAndEachServiceOnce() {
        HandlerRegistry registry = services.registry(s -> s);
        assertTrue(binds.isEmpty());
        assertNotNull(registry.lookupMethod("etcdserverpb.KV/Put", null));
        assertNotNull(registry.lookupMethod("etcdserverpb.KV/Range", null));
        assertEquals(1, bindsOf(KVGrpc.SERVICE_NAME));
        assertEquals(0, bindsOf(LeaseGrpc.SERVICE_NAME));
        assertTrue(services.isBound(KVGrpc.SERVICE_NAME));
        assertFalse(services.isBound(LeaseGrpc.SERVICE_NAME));
        assertEquals(List.of(KVGrpc.SERVICE_NAME), heard);
        // a second server's registry shares the bound service
        assertNotNull(services.registry(s -> s).lookupMethod("etcdserverpb.KV/Put", null));
        assertEquals(1, bindsOf(KVGrpc.SERVICE_NAME));
    }

    @Test
    void unknownServicesAndMethodsAreNotFoundWithoutBinding() {
        HandlerRegistry registry = services.registry(s -> s);
        assertNull(registry.lookupMethod("etcdserverpb.Nothing/Put", null));
        assertNull(registry.lookupMethod("no-slash", null));
        assertTrue(binds.isEmpty());
        assertNull(registry.lookupMethod("etcdserverpb.KV/Nothing", null), "the service is bound, the method is not there");
        assertEquals(1, bindsOf(KVGrpc.SERVICE_NAME));
    }

    @Test
    void allBindsTheRestInOrder() {
        services.service(LeaseGrpc.SERVICE_NAME);
        List<ServerServiceDefinition> all = services.all();
        assertEquals(List.of(KVGrpc.SERVICE_NAME, LeaseGrpc.SERVICE_NAME, WatchGrpc.SERVICE_NAME),
                all.stream().map(s -> s.getServiceDescriptor().getName()).toList());
        assertEquals(List.of(LeaseGrpc.SERVICE_NAME, KVGrpc.SERVICE_NAME, WatchGrpc.SERVICE_NAME), heard);
        assertSame(all.get(0), services.service(KVGrpc.SERVICE_NAME));
        assertEquals(1, bindsOf(LeaseGrpc.SERVICE_NAME));
        assertNull(services.service("etcdserverpb.Nothing"));
    }

    @Test
    void aBinderThatBindsAnotherServiceIsRefused() {
        ClientServices wrong = new ClientServices(s -> { })
                .add("etcdserverpb.Lease", () -> new KVGrpc.KVImplBase() { }.bindService());
        assertThrows(IllegalStateException.class, () -> wrong.service("etcdserverpb.Lease"));
    }

    @Test
    void concurrentFirstCallsBindOnce() throws Exception {
        HandlerRegistry registry = services.registry(s -> s);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        CountDownLatch go = new CountDownLatch(1);
        try {
            List<Future<Object>> found = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                found.add(pool.submit(() -> {
                    go.await();
                    return registry.lookupMethod("etcdserverpb.Lease/LeaseGrant", null);
                }));
            }
            go.countDown();
            for (var f : found) {
                assertNotNull(f.get(10, TimeUnit.SECONDS));
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(1, bindsOf(LeaseGrpc.SERVICE_NAME));
    }

    /** Through a real server: the registry's interceptors run, and unknown methods fail as gRPC fails them. */
    @Test
    void callsThroughAServerRunTheRegistrysInterceptors() throws Exception {
        AtomicInteger intercepted = new AtomicInteger();
        ServerInterceptor counting = new ServerInterceptor() {
            @Override
            public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
                intercepted.incrementAndGet();
                return next.startCall(call, headers);
            }
        };
        String name = "client-services-" + System.nanoTime();
        Server server = InProcessServerBuilder.forName(name).directExecutor()
                .fallbackHandlerRegistry(services.registry(s -> ServerInterceptors.intercept(s, counting))).build().start();
        ManagedChannel channel = InProcessChannelBuilder.forName(name).directExecutor().build();
        try {
            KVGrpc.newBlockingStub(channel).put(PutRequest.newBuilder().build());
            KVGrpc.newBlockingStub(channel).put(PutRequest.newBuilder().build());
            assertEquals(2, intercepted.get());
            StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
                    () -> ClusterGrpc.newBlockingStub(channel)
                            .memberList(MemberListRequest.newBuilder().build()));
            assertEquals(Status.Code.UNIMPLEMENTED, e.getStatus().getCode());
            assertEquals(1, bindsOf(KVGrpc.SERVICE_NAME));
            assertEquals(0, bindsOf(LeaseGrpc.SERVICE_NAME));
        } finally {
            channel.shutdownNow();
            server.shutdownNow();
        }
    }
}
