package io.etcdj.ctl.warm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.Closeable;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A call's connection to its client survives the command's threads being interrupted: watch
 * interrupts its own stdin reader and printer when it ends, and a command may leave its thread's
 * interrupt flag set. A channel write from such a thread used to close the connection, and the
 * client printed "the etcdj warm server ended before the command finished" instead of the exit code.
 */
class ChannelStreamsTest {

    @TempDir
    Path dir;

    private ServerSocketChannel listener;
    private SocketChannel client;
    private SocketChannel server;

    @BeforeEach
    void connect() throws IOException {
        listener = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        listener.bind(UnixDomainSocketAddress.of(dir.resolve("call.sock")));
        client = SocketChannel.open(listener.getLocalAddress());
        server = listener.accept();
    }

    @AfterEach
    void close() throws IOException {
        Thread.interrupted();
        for (Closeable c : new Closeable[] {client, server, listener}) {
            if (c != null) {
                c.close();
            }
        }
    }

    @Test
    void aWriteFromAnInterruptedThreadReachesTheClientAndKeepsTheInterrupt() throws IOException {
        try (ChannelStreams.Output sink = ChannelStreams.out(server)) {
            DataOutputStream out = new DataOutputStream(sink);
            Thread.currentThread().interrupt();
            Frames.write(out, Frames.STDOUT, "PUT\n".getBytes(StandardCharsets.UTF_8), 0, 4);
            Frames.writeInt(out, Frames.EXIT, 1);
            assertTrue(Thread.interrupted(), "the command's interrupt is still its own to see");
            assertTrue(server.isOpen(), "the connection stays open");
        }
        DataInputStream in = new DataInputStream(Channels.newInputStream(client));
        Frames.Frame output = Frames.read(in);
        Frames.Frame exit = Frames.read(in);
        assertArrayEquals("PUT\n".getBytes(StandardCharsets.UTF_8), output.payload());
        assertArrayEquals(new byte[] {0, 0, 0, 1}, exit.payload());
    }

    @Test
    void anInterruptDuringAWaitForTheWriteDoesNotCloseTheConnection() throws Exception {
        byte[] big = new byte[4 << 20]; // more than the socket buffers: the write waits for the client
        Thread writer;
        try (ChannelStreams.Output sink = ChannelStreams.out(server)) {
            writer = new Thread(() -> {
                try {
                    Frames.write(new DataOutputStream(sink), Frames.STDOUT, big, 0, big.length);
                } catch (IOException e) {
                    throw new AssertionError(e);
                }
            });
            writer.start();
            Thread.sleep(100);
            writer.interrupt();
            DataInputStream in = new DataInputStream(Channels.newInputStream(client));
            Frames.Frame frame = Frames.read(in);
            assertArrayEquals(big, frame.payload());
            writer.join(10_000);
        }
        assertTrue(server.isOpen(), "the connection stays open");
    }
}
