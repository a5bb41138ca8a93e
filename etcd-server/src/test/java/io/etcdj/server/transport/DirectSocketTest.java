package io.etcdj.server.transport;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.server.listen.IoLoops;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.epoll.EpollSocketChannel;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A Raft stream's socket as its writer holds it: its own hold on the connection, so the event
 * loop closing the channel's descriptor (and a new connection taking the number) changes nothing
 * for a write already decided; closed, it refuses writes.
 */
class DirectSocketTest {
    private static final byte[] HELLO = "hello".getBytes(US_ASCII);

    private final IoLoops loops = IoLoops.forTcp("test-direct", 0);
    private final List<Socket> sockets = new ArrayList<>();

    @AfterEach
    void stop() throws IOException {
        for (Socket s : sockets) {
            s.close();
        }
        loops.shutdown(0, 1);
    }

    @Test
    void aDuplicateWritesToItsOwnConnectionAfterTheChannelGaveItsNumberUp() throws Exception {
        assertTrue(loops.isNative(), "Netty's epoll transport loads here");
        try (ServerSocket peer = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
                ServerSocket other = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            EpollSocketChannel channel = new EpollSocketChannel();
            DirectSocket direct = DirectSocket.duplicateOf(channel);
            new Bootstrap().group(loops.workers()).channelFactory(() -> channel).handler(new ChannelInboundHandlerAdapter())
                    .connect(peer.getLocalSocketAddress()).sync();
            Socket accepted = keep(peer.accept());
            channel.close().sync();
            for (int i = 0; i < 16; i++) { // each end a new descriptor: the channel's freed number among them
                keep(new Socket(other.getInetAddress(), other.getLocalPort()));
                keep(other.accept());
            }
            ByteBuf hello = PooledByteBufAllocator.DEFAULT.directBuffer().writeBytes(HELLO);
            try {
                assertEquals(HELLO.length, direct.write(hello));
            } finally {
                hello.release();
                direct.close();
            }
            for (Socket s : sockets.subList(1, sockets.size())) {
                assertEquals(0, available(s), "bytes reached a connection made after the channel closed");
            }
            byte[] got = new byte[HELLO.length];
            accepted.setSoTimeout(5_000);
            new DataInputStream(accepted.getInputStream()).readFully(got);
            assertArrayEquals(HELLO, got, "the write reached the stream's own peer");
            assertEquals(-1, accepted.getInputStream().read(), "the connection ends once both holds are let go");
            assertThrows(ClosedChannelException.class, () -> direct.write(Unpooled.wrappedBuffer(HELLO)));
        }
    }

    @Test
    void theJdksChannelRefusesWritesOnceClosed() throws Exception {
        try (ServerSocket peer = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            SocketChannel jdk = SocketChannel.open(peer.getLocalSocketAddress());
            DirectSocket direct = DirectSocket.of(jdk);
            Socket accepted = keep(peer.accept());
            assertEquals(HELLO.length, direct.write(Unpooled.directBuffer().writeBytes(HELLO)));
            direct.close();
            assertThrows(ClosedChannelException.class, () -> direct.write(Unpooled.directBuffer().writeBytes(HELLO)));
            byte[] got = new byte[HELLO.length];
            accepted.setSoTimeout(5_000);
            new DataInputStream(accepted.getInputStream()).readFully(got);
            assertArrayEquals(HELLO, got);
        }
    }

    private Socket keep(Socket s) {
        sockets.add(s);
        return s;
    }

    private static int available(Socket s) throws IOException {
        s.setSoTimeout(50);
        try {
            return Math.max(s.getInputStream().read(new byte[64]), 0);
        } catch (SocketTimeoutException quiet) {
            return 0;
        }
    }
}
