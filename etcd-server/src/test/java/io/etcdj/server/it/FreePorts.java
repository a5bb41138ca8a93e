package io.etcdj.server.it;

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

    public static int pick() {
        for (int attempt = 0; attempt < 200; attempt++) {
            int port = ThreadLocalRandom.current().nextInt(LOW, HIGH);
            try (ServerSocket s = new ServerSocket()) {
                s.setReuseAddress(true);
                s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
                return port;
            } catch (IOException e) {
                // taken: try another
            }
        }
        throw new IllegalStateException("no free port on 127.0.0.1 between " + LOW + " and " + HIGH);
    }
}
