package io.etcdj.embedded;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Free ports of 127.0.0.1 for members, from below the kernel's ephemeral range (32768 and up on
 * Linux): a port from bind(0) can be taken by one of the members' own outgoing connections before
 * the member binds it. A port is handed out once per JVM, so two clusters of one test run never
 * pick the same one; a start that still finds a port taken picks new ones and tries again.
 */
final class Ports {
    private static final int LOW = 20000;
    private static final int HIGH = 32000;
    private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

    private Ports() {
    }

    static int pick() {
        for (int attempt = 0; attempt < 1000; attempt++) {
            int port = ThreadLocalRandom.current().nextInt(LOW, HIGH);
            if (isFree(port) && HANDED_OUT.add(port)) {
                return port;
            }
        }
        throw new IllegalStateException("no free port on 127.0.0.1 between " + LOW + " and " + HIGH);
    }

    private static boolean isFree(int port) {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
