package io.etcdj.server.listen;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

class BindFailureTest {
    @Test
    void aPortInUseSaysSoAsGoDoes() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             ServerSocket second = new ServerSocket()) {
            IOException e = Assertions.assertThrows(IOException.class,
                    () -> second.bind(new InetSocketAddress("127.0.0.1", taken.getLocalPort())));
            IOException wrapped = BindFailure.of(false, "127.0.0.1:" + taken.getLocalPort(),
                    new IOException("Failed to bind to address /127.0.0.1:" + taken.getLocalPort(), e));
            assertEquals("listen tcp 127.0.0.1:" + taken.getLocalPort() + ": bind: address already in use", wrapped.getMessage());
        }
    }

    @Test
    void nettysNativeMessageLosesItsPrefix() {
        // the text Netty's epoll transport gives (Errors.newIOException), by class name as it is not on our class path
        class NativeIoException extends IOException {
            NativeIoException(String m) {
                super(m);
            }
        }
        assertEquals("cannot assign requested address", BindFailure.reason(new IOException("Failed to bind",
                new NativeIoException("bind(..) failed with error(-99): Cannot assign requested address"))));
    }

    @Test
    void aFailureThatIsNoSocketErrorKeepsItsOwnText() {
        assertEquals("permission denied", BindFailure.reason(new BindException("Permission denied")));
        assertEquals("open /nonexistent/cert.pem: no such file or directory", BindFailure.reason(
                new IOException("wrapper", new IOException("open /nonexistent/cert.pem: no such file or directory"))));
    }
}
