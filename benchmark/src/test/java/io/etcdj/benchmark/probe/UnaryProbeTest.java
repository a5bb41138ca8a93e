package io.etcdj.benchmark.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.DeleteRangeRequest;
import io.etcdj.api.etcdserverpb.KVGrpc;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.api.etcdserverpb.PutResponse;
import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.api.etcdserverpb.RangeResponse;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.NettyChannelBuilder;
import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.EpollIoHandler;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Both probe servers must answer a gRPC client alike, or the comparison measures different work. */
class UnaryProbeTest {
    private EventLoopGroup boss;
    private EventLoopGroup workers;
    private Server grpc;
    private Channel lean;
    private ManagedChannel toGrpc;
    private ManagedChannel toLean;

    @BeforeEach
    void start() throws Exception {
        boss = new MultiThreadIoEventLoopGroup(1, EpollIoHandler.newFactory());
        workers = new MultiThreadIoEventLoopGroup(2, EpollIoHandler.newFactory());
        grpc = GrpcProbeServer.start(0, boss, workers);
        lean = LeanProbeServer.start(0, boss, workers);
        toGrpc = NettyChannelBuilder.forAddress("127.0.0.1", grpc.getPort()).usePlaintext().build();
        toLean = NettyChannelBuilder.forAddress("127.0.0.1", ((InetSocketAddress) lean.localAddress()).getPort())
                .usePlaintext().build();
    }

    @AfterEach
    void stop() throws Exception {
        toGrpc.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        toLean.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        grpc.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        lean.close().sync();
        workers.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        boss.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
    }

    @Test
    void rangeFindsTheKeyWithA256ByteValueOnBoth() {
        RangeRequest request = RangeRequest.newBuilder().setKey(ByteString.copyFromUtf8("probe-key")).build();
        RangeResponse fromGrpc = KVGrpc.newBlockingStub(toGrpc).range(request);
        RangeResponse fromLean = KVGrpc.newBlockingStub(toLean).range(request);
        assertEquals("probe-key", fromLean.getKvs(0).getKey().toStringUtf8());
        assertEquals(256, fromLean.getKvs(0).getValue().size());
        assertEquals(1, fromLean.getCount());
        assertEquals(fromGrpc, fromLean);
    }

    @Test
    void putsMoveTheRevisionOnOnBoth() {
        PutRequest request = PutRequest.newBuilder().setKey(ByteString.copyFromUtf8("k"))
                .setValue(ByteString.copyFromUtf8("v")).build();
        for (ManagedChannel channel : new ManagedChannel[] {toGrpc, toLean}) {
            PutResponse first = KVGrpc.newBlockingStub(channel).put(request);
            PutResponse second = KVGrpc.newBlockingStub(channel).put(request);
            assertEquals(first.getHeader().getRevision() + 1, second.getHeader().getRevision());
        }
    }

    @Test
    void aPutWithoutAKeyIsAnInvalidArgumentOnBoth() {
        for (ManagedChannel channel : new ManagedChannel[] {toGrpc, toLean}) {
            StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
                    () -> KVGrpc.newBlockingStub(channel).put(PutRequest.getDefaultInstance()));
            assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode());
        }
    }

    @Test
    void anotherMethodIsUnimplementedOnBoth() {
        DeleteRangeRequest request = DeleteRangeRequest.newBuilder().setKey(ByteString.copyFromUtf8("k")).build();
        for (ManagedChannel channel : new ManagedChannel[] {toGrpc, toLean}) {
            StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
                    () -> KVGrpc.newBlockingStub(channel).deleteRange(request));
            assertEquals(Status.Code.UNIMPLEMENTED, e.getStatus().getCode());
        }
    }
}
