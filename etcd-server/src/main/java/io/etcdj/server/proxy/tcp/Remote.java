package io.etcdj.server.proxy.tcp;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.util.Locale;

/**
 * One endpoint behind the gateway, with the SRV priority and weight it was discovered with (0, 0
 * for --endpoints). A failed dial marks it inactive; only the retry monitor brings it back.
 */
final class Remote {
    private static final int DIAL_TIMEOUT_MS = 5_000;

    final String host;
    final int port;
    final int priority;
    final int weight;
    private volatile boolean active = true;

    Remote(String host, int port, int priority, int weight) {
        this.host = host;
        this.port = port;
        this.priority = priority;
        this.weight = weight;
    }

    /** host:port as etcd prints it in its log fields. */
    String address() {
        return host.contains(":") ? "[" + host + "]:" + port : host + ":" + port;
    }

    boolean isActive() {
        return active;
    }

    void inactivate() {
        active = false;
    }

    Socket dial() throws IOException {
        Socket s = new Socket();
        try {
            s.connect(new InetSocketAddress(host, port), DIAL_TIMEOUT_MS);
            s.setTcpNoDelay(true);
            return s;
        } catch (IOException e) {
            s.close();
            throw e;
        }
    }

    /** Dials once; on success the endpoint takes connections again. */
    void tryReactivate() throws IOException {
        dial().close();
        active = true;
    }

    /** Go's dial error text, which etcd logs: "dial tcp 127.0.0.1:2379: connect: connection refused". */
    String dialError(IOException e) {
        String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        if (e instanceof ConnectException) {
            why = "connect: " + why.replaceFirst(" \\(.*\\)$", "").toLowerCase(Locale.ROOT);
        } else if (e instanceof SocketTimeoutException) {
            why = "i/o timeout";
        } else if (e instanceof UnknownHostException) {
            why = "lookup " + host + ": no such host";
        }
        return "dial tcp " + address() + ": " + why;
    }
}
