package io.etcdj.launcher.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SocketOwnersTest {
    @Test
    void parsesProcNetTcpRows() {
        String row = "   3: 0100007F:C350 0100007F:5DC0 01 00000000:00000000 00:00000000 00000000     0        0 123456 1 0000000000000000 "
                + "20 4 30 10 -1";
        assertEquals(Optional.of("123456"), SocketOwners.matchLine(row, 0xC350, 0x5DC0));
        assertEquals(Optional.empty(), SocketOwners.matchLine(row, 0x5DC0, 0xC350));
        assertEquals(Optional.empty(),
                SocketOwners.matchLine("  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode",
                1, 2));
    }

    @Test
    void findsThisProcessAsTheOwnerOfItsOwnConnection() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                  Socket client = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
                  Socket accepted = server.accept()) {
            long self = ProcessHandle.current().pid();
            assertEquals(Optional.of("me"), SocketOwners.ownerOf(accepted.getPort(), server.getLocalPort(),
                    Map.of("other", -1L, "me", self)));
        }
    }
}
