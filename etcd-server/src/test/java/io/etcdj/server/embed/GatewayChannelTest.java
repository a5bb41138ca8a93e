package io.etcdj.server.embed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.protobuf.StringValue;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.protobuf.ProtoUtils;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import io.grpc.util.MutableHandlerRegistry;
import org.junit.jupiter.api.Test;

/** The gateway's in-process channel: made at its first call, answering as a closed channel once closed. */
class GatewayChannelTest {
    private static final MethodDescriptor<StringValue, StringValue> ECHO = MethodDescriptor.<StringValue, StringValue>newBuilder()
            .setType(MethodDescriptor.MethodType.UNARY).setFullMethodName("test.Echo/Say")
            .setRequestMarshaller(ProtoUtils.marshaller(StringValue.getDefaultInstance()))
            .setResponseMarshaller(ProtoUtils.marshaller(StringValue.getDefaultInstance())).build();

    private static MutableHandlerRegistry echoService() {
        MutableHandlerRegistry registry = new MutableHandlerRegistry();
        registry.addService(ServerServiceDefinition.builder("test.Echo").addMethod(ECHO,
                ServerCalls.asyncUnaryCall((StringValue request, StreamObserver<StringValue> out) -> {
                    out.onNext(StringValue.of("echo: " + request.getValue()));
                    out.onCompleted();
                })).build());
        return registry;
    }

    private static String say(Channel channel, String text) {
        return ClientCalls.blockingUnaryCall(channel, ECHO, CallOptions.DEFAULT, StringValue.of(text)).getValue();
    }

    private static String nameFor(String test) {
        return "gateway-channel-test-" + test + "-" + System.nanoTime();
    }

    @Test
    void theServicesAreReachableInProcessOnlyFromTheFirstCall() {
        String name = nameFor("first-call");
        try (GatewayChannel gateway = new GatewayChannel(name, 1024, echoService())) {
            ManagedChannel outsider = InProcessChannelBuilder.forName(name).build();
            try {
                StatusRuntimeException before = assertThrows(StatusRuntimeException.class,
                        () -> say(outsider, "early"));
                assertEquals(Status.Code.UNAVAILABLE, before.getStatus().getCode());
                assertEquals("echo: hello", say(gateway, "hello"));
                assertEquals("echo: again", say(gateway, "again"));
            } finally {
                outsider.shutdownNow();
            }
        }
    }

    @Test
    void aCallAfterCloseFailsUnavailableWhetherOrNotTheChannelWasEverUsed() {
        GatewayChannel unused = new GatewayChannel(nameFor("unused"), 1024, echoService());
        unused.close();
        StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
                () -> say(unused, "late"));
        assertEquals(Status.Code.UNAVAILABLE, e.getStatus().getCode());

        GatewayChannel used = new GatewayChannel(nameFor("used"), 1024, echoService());
        assertEquals("echo: once", say(used, "once"));
        used.close();
        e = assertThrows(StatusRuntimeException.class,
                () -> say(used, "late"));
        assertEquals(Status.Code.UNAVAILABLE, e.getStatus().getCode());
    }
}
