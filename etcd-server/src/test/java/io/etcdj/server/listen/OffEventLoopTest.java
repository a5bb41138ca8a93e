package io.etcdj.server.listen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.KVGrpc;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.api.etcdserverpb.PutResponse;
import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.api.etcdserverpb.RangeResponse;
import io.etcdj.api.mvccpb.KeyValue;
import io.etcdj.server.log.LogSink;
import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.StreamObserver;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

class OffEventLoopTest {
    private static final Context.Key<String> WHO = Context.key("who");
    private final ExecutorService pool = Executors.newFixedThreadPool(2, r -> new Thread(r, "pool"));
    private Server server;
    private ManagedChannel channel;

    private final KVGrpc.KVImplBase kv = new KVGrpc.KVImplBase() {
        @Override
        public void range(RangeRequest r, StreamObserver<RangeResponse> out) {
            if (r.getKey().toStringUtf8().equals("fail")) {
                throw new IllegalStateException("handler bug");
            }
            out.onNext(RangeResponse.newBuilder().setCount(Thread.currentThread().getName().equals("pool") ? 1 : 0)
                    .setMore(WHO.get() != null && WHO.get().equals("alice")).build());
            out.onCompleted();
        }

        @Override
        public void put(PutRequest r, StreamObserver<PutResponse> out) {
            out.onNext(PutResponse.newBuilder().setPrevKv(KeyValue.newBuilder()
                    .setKey(ByteString.copyFromUtf8(Thread.currentThread().getName()))).build());
            out.onCompleted();
        }
    };

    private KVGrpc.KVBlockingStub start() throws Exception {
        ServerInterceptor identity = new ServerInterceptor() {
            @Override
            public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata h,
                                                                      ServerCallHandler<Q, R> next) {
                return Contexts.interceptCall(Context.current().withValue(WHO, "alice"), call, h, next);
            }
        };
        String name = "off-event-loop-" + System.nanoTime();
        server = InProcessServerBuilder.forName(name).directExecutor()
                .addService(ServerInterceptors.intercept(kv, identity,
                        new OffEventLoop(pool, Set.of(KVGrpc.getPutMethod().getFullMethodName()), LogSink.stderr())))
                .build().start();
        channel = InProcessChannelBuilder.forName(name).directExecutor().build();
        return KVGrpc.newBlockingStub(channel);
    }

    @AfterEach
    void stop() {
        channel.shutdownNow();
        server.shutdownNow();
        pool.shutdownNow();
    }

    @Test
    void aMovedCallRunsOnThePoolInItsCallersContext() throws Exception {
        RangeResponse r = start().range(RangeRequest.getDefaultInstance());
        assertEquals(1, r.getCount(), "ran on the pool");
        assertTrue(r.getMore(), "saw the context an inner interceptor set");
    }

    @Test
    void aCallNamedToStayRunsOnTheTransportThread() throws Exception {
        PutResponse p = start().put(PutRequest.getDefaultInstance());
        assertNotEquals("pool", p.getPrevKv().getKey().toStringUtf8());
    }

    @Test
    void aMovedHandlerThatThrowsEndsItsCallWithUnknown() throws Exception {
        KVGrpc.KVBlockingStub stub = start();
        StatusRuntimeException e = Assertions.assertThrows(StatusRuntimeException.class,
                () -> stub.range(RangeRequest.newBuilder().setKey(ByteString.copyFromUtf8("fail")).build()));
        assertEquals(Status.Code.UNKNOWN, e.getStatus().getCode());
    }
}
