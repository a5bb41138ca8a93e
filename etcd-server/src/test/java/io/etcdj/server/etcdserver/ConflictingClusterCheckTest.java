package io.etcdj.server.etcdserver;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Which peers the start-up check asks: only those whose port takes a connection. */
class ConflictingClusterCheckTest {
    @Test
    void aPeerPortWithAListenerIsAskedEvenBeforeItAccepts() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            assertTrue(ConflictingClusterCheck.listening("http://127.0.0.1:" + s.getLocalPort()));
            assertTrue(ConflictingClusterCheck.listening("https://localhost:" + s.getLocalPort()));
        }
    }

    @Test
    void aPeerPortNobodyListensOnIsNotAsked() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        assertFalse(ConflictingClusterCheck.listening("http://127.0.0.1:" + port));
    }

    @Test
    void aUnixSocketPeerIsAskedWhileItsFileListens() throws Exception {
        // etcd's unix URLs name a file relative to the working directory: unix://NAME
        String name = "conflict-check-" + ProcessHandle.current().pid() + ".sock";
        Path file = Path.of(name);
        assertFalse(ConflictingClusterCheck.listening("unix://" + name));
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            server.bind(UnixDomainSocketAddress.of(file));
            assertTrue(ConflictingClusterCheck.listening("unix://" + name));
        } finally {
            Files.deleteIfExists(file);
        }
        assertFalse(ConflictingClusterCheck.listening("unix://" + name));
    }
}
