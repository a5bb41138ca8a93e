package io.etcdj.launcher.proxy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class FaultProxyTest {
    private ServerSocket echo;
    private Thread echoThread;
    private FaultProxy proxy;
    private final FaultRules rules = new FaultRules();

    @BeforeEach
    void start() throws IOException {
        echo = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        echoThread = new Thread(this::echoLoop, "echo");
        echoThread.setDaemon(true);
        echoThread.start();
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            proxy = new FaultProxy("m1", new InetSocketAddress("127.0.0.1", probe.getLocalPort()),
                    new InetSocketAddress("127.0.0.1", echo.getLocalPort()), rules,
                    () -> Map.of("self", ProcessHandle.current().pid()));
        }
        proxy.start();
    }

    @AfterEach
    void stop() throws IOException {
        proxy.close();
        echo.close();
    }

    private void echoLoop() {
        while (!echo.isClosed()) {
            try {
                Socket s = echo.accept();
                Thread t = new Thread(() -> {
                    try (s; InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
                        in.transferTo(out);
                    } catch (IOException ignored) {
                        // peer went away
                    }
                });
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                return;
            }
        }
    }

    private Socket connect() throws IOException {
        Socket s = new Socket();
        s.connect(proxy.listenAddress(), 2000);
        s.setSoTimeout(5000);
        return s;
    }

    private static byte[] roundTrip(Socket s, String text) throws IOException {
        byte[] sent = text.getBytes(StandardCharsets.UTF_8);
        s.getOutputStream().write(sent);
        return s.getInputStream().readNBytes(sent.length);
    }

    @Test
    void forwardsBothWays() throws IOException {
        try (Socket s = connect()) {
            assertArrayEquals("hello".getBytes(StandardCharsets.UTF_8), roundTrip(s, "hello"));
        }
    }

    @Test
    void partitionCutsOpenConnectionsAndRefusesNewOnesUntilHealed() throws IOException {
        try (Socket open = connect()) {
            roundTrip(open, "x");
            rules.partition("m1");
            proxy.enforce();
            assertEquals(-1, open.getInputStream().read(), "an open connection is cut");
        }
        try (Socket refused = connect()) {
            assertEquals(-1, refused.getInputStream().read(), "a new connection is closed at once");
        }
        rules.heal();
        try (Socket healed = connect()) {
            assertArrayEquals("back".getBytes(StandardCharsets.UTF_8), roundTrip(healed, "back"));
        }
    }

    @Test
    void partitionOfTheSourceCutsItsOutgoingConnections() throws IOException {
        rules.partition("self");
        try (Socket s = connect()) {
            assertEquals(-1, s.getInputStream().read(), "this process is member \"self\", which is partitioned");
        }
    }

    @Test
    void delayHoldsEveryChunkBack() throws IOException {
        rules.delay("m1", 150);
        try (Socket s = connect()) {
            long start = System.nanoTime();
            assertArrayEquals("slow".getBytes(StandardCharsets.UTF_8), roundTrip(s, "slow"));
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertTrue(millis >= 300, "delayed on the way there and back, took " + millis + " ms");
        }
    }
}
