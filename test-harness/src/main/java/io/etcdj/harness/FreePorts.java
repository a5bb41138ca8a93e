package io.etcdj.harness;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Picks ports on 127.0.0.1 that are free right now. They come from below the kernel's ephemeral
 * range (32768 and up on Linux): a port the kernel hands out for bind(0) can be taken again at
 * once by an outgoing connection (members dial each other constantly) before the server binds it.
 * A port is handed out once per JVM: picks are not held open, so without that two picks of one
 * test could meet (a cluster file with one port used twice).
 */
public final class FreePorts {
    private static final int LOW = 20000;
    private static final int HIGH = 32000;
    private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

    private FreePorts() {
    }

    /** A free port, not handed out before in this JVM. */
    public static int pick() {
        return pickRange(1);
    }

    /**
     * A free port {@code p} with {@code p + 1 ... p + count - 1} free too: for a listener that moves one
     * port up (the launcher's fault proxy), or a script that numbers its members' ports from a base.
     */
    public static synchronized int pickRange(int count) {
        for (int attempt = 0; attempt < 400; attempt++) {
            int base = ThreadLocalRandom.current().nextInt(LOW, HIGH - count + 1);
            boolean free = true;
            for (int port = base; free && port < base + count; port++) {
                free = !HANDED_OUT.contains(port) && isFree(port);
            }
            if (free) {
                for (int port = base; port < base + count; port++) {
                    HANDED_OUT.add(port);
                }
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
