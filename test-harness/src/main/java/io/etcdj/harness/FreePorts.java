package io.etcdj.harness;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Picks ports on 127.0.0.1 that are free right now. They come from below the kernel's ephemeral
 * range (32768 and up on Linux): a port the kernel hands out for bind(0) can be taken again at
 * once by an outgoing connection (members dial each other constantly) before the server binds it.
 */
public final class FreePorts {
    private static final int LOW = 20000;
    private static final int HIGH = 32000;

    private FreePorts() {
    }

    /** A free port. */
    public static int pick() {
        for (int attempt = 0; attempt < 200; attempt++) {
            int port = ThreadLocalRandom.current().nextInt(LOW, HIGH);
            if (isFree(port)) {
                return port;
            }
        }
        throw new IllegalStateException("no free port on 127.0.0.1 between " + LOW + " and " + HIGH);
    }

    /**
     * A free port {@code p} with {@code p + 1 ... p + count - 1} free too: for a listener that moves one
     * port up (the launcher's fault proxy), or a script that numbers its members' ports from a base.
     */
    public static int pickRange(int count) {
        for (int attempt = 0; attempt < 200; attempt++) {
            int base = pick();
            boolean free = base + count <= HIGH;
            for (int port = base + 1; free && port < base + count; port++) {
                free = isFree(port);
            }
            if (free) {
                return base;
            }
        }
        throw new IllegalStateException("no " + count + " free neighbouring ports on 127.0.0.1 between " + LOW
                + " and " + HIGH);
    }

    /** Whether nothing listens on {@code port} of 127.0.0.1 now. */
    public static boolean isFree(int port) {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
