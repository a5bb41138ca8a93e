package io.etcdj.harness;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FreePortsTest {

    @Test
    void picksFreePortsBelowTheEphemeralRange() throws Exception {
        int port = FreePorts.pick();
        assertTrue(port >= 20000 && port < 32768, "port " + port);
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            assertFalse(FreePorts.isFree(port), "a bound port is not free");
        }
    }

    @Test
    void aRangeIsFreeFromItsBase() {
        int base = FreePorts.pickRange(5);
        for (int p = base; p < base + 5; p++) {
            assertTrue(FreePorts.isFree(p), "port " + p + " of the range from " + base);
        }
    }

    @Test
    void noPortIsHandedOutTwice() {
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < 2000; i++) {
            int base = FreePorts.pickRange(2);
            assertTrue(seen.add(base) && seen.add(base + 1), "port " + base + " or " + (base + 1) + " handed out twice");
        }
    }
}
