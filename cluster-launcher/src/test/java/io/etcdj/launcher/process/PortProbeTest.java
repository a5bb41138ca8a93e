package io.etcdj.launcher.process;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.etcdj.launcher.LauncherException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;

class PortProbeTest {
    @Test
    void namesTheBusyPortAndItsMember() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int busy = taken.getLocalPort();
            int free = PortProbe.freePort();
            URI busyUrl = URI.create("http://127.0.0.1:" + busy);
            LauncherException e = assertThrows(LauncherException.class, () -> PortProbe.requireFree(List.of(
                    new PortProbe.Claim(URI.create("http://127.0.0.1:" + free), "client URL of infra1"),
                    new PortProbe.Claim(busyUrl, "peer URL of infra2"))));
            assertEquals("port " + busy + " (peer URL of infra2, " + busyUrl + ") is already in use", e.getMessage());
        }
    }

    @Test
    void freePortsPass() {
        int port = PortProbe.freePort();
        assertDoesNotThrow(() -> PortProbe.requireFree(List.of(
                new PortProbe.Claim(URI.create("http://127.0.0.1:" + port), "client URL of a"))));
    }
}
