package io.etcdj.server.embed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import io.grpc.util.MutableHandlerRegistry;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The gateway's in-process channel: made at its first call, answering as a closed channel once closed. */
class GatewayChannelTest {
    private static final MethodDescriptor.Marshaller<String> TEXT = new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(String value) {
            return new ByteArrayInputStream(value.getBytes(StandardCharsets.UTF_8));
        }

        @Override
        public String parse(InputStream stream) {
            try {
                return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    };
    private static final MethodDescriptor<String, String> ECHO = MethodDescriptor.<String, String>newBuilder()
            .setType(MethodDescriptor.MethodType.UNARY).setFullMethodName("test.Echo/Say")
            .setRequestMarshaller(TEXT).setResponseMarshaller(TEXT).build();

    private static MutableHandlerRegistry echoService() {
        MutableHandlerRegistry registry = new MutableHandlerRegistry();
        registry.addService(ServerServiceDefinition.builder("test.Echo").addMethod(ECHO,
                ServerCalls.asyncUnaryCall((String request, StreamObserver<String> out) -> {
                    out.onNext("echo: " + request);
                    out.onCompleted();
                })).build());
        return registry;
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
                        () -> ClientCalls.blockingUnaryCall(outsider, ECHO, CallOptions.DEFAULT, "early"));
                assertEquals(Status.Code.UNAVAILABLE, before.getStatus().getCode());
                assertEquals("echo: hello", ClientCalls.blockingUnaryCall(gateway, ECHO, CallOptions.DEFAULT, "hello"));
                assertEquals("echo: again", ClientCalls.blockingUnaryCall(gateway, ECHO, CallOptions.DEFAULT, "again"));
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
                () -> ClientCalls.blockingUnaryCall(unused, ECHO, CallOptions.DEFAULT, "late"));
        assertEquals(Status.Code.UNAVAILABLE, e.getStatus().getCode());

        GatewayChannel used = new GatewayChannel(nameFor("used"), 1024, echoService());
        assertEquals("echo: once", ClientCalls.blockingUnaryCall(used, ECHO, CallOptions.DEFAULT, "once"));
        used.close();
        e = assertThrows(StatusRuntimeException.class,
                () -> ClientCalls.blockingUnaryCall(used, ECHO, CallOptions.DEFAULT, "late"));
        assertEquals(Status.Code.UNAVAILABLE, e.getStatus().getCode());
    }
}
