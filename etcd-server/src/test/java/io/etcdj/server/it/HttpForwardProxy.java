package io.etcdj.server.it;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A plain HTTP forward proxy on 127.0.0.1 for tests of --discovery-proxy: clients send
 * absolute-form requests ("GET http://host:port/path HTTP/1.1"); the proxy records each
 * connection's first request line and pipes the connection to the port of the URL on
 * 127.0.0.1, whatever the host name. A URL whose host only this proxy "resolves" (such as
 * {@code discovery.invalid}) can therefore be reached only through the proxy.
 */
final class HttpForwardProxy implements AutoCloseable {
    private final ServerSocket server;
    private final List<String> requests = new CopyOnWriteArrayList<>();
    private final List<Socket> open = new CopyOnWriteArrayList<>();

    HttpForwardProxy() throws IOException {
        server = new ServerSocket();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        Thread t = new Thread(this::accept, "test-http-proxy");
        t.setDaemon(true);
        t.start();
    }

    /** host:port, as --discovery-proxy takes it. */
    String address() {
        return "127.0.0.1:" + server.getLocalPort();
    }

    /** The first request line of every proxied connection, e.g. "PUT http://discovery.invalid:2379/v2/keys/... HTTP/1.1". */
    List<String> requests() {
        return List.copyOf(requests);
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                open.add(client);
                Thread t = new Thread(() -> serve(client), "test-http-proxy-conn");
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket client) {
        try (client) {
            InputStream in = client.getInputStream();
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            int b;
            while ((b = in.read()) >= 0 && b != '\n') {
                line.write(b);
            }
            String requestLine = line.toString(StandardCharsets.US_ASCII).trim();
            requests.add(requestLine);
            String[] parts = requestLine.split(" ");
            URI target = URI.create(parts[1]);
            try (Socket upstream = new Socket(InetAddress.getLoopbackAddress(), target.getPort() < 0 ? 80 : target.getPort())) {
                open.add(upstream);
                OutputStream up = upstream.getOutputStream();
                up.write((requestLine + "\r\n").getBytes(StandardCharsets.US_ASCII));
                Thread back = new Thread(() -> pipe(upstream, client), "test-http-proxy-back");
                back.setDaemon(true);
                back.start();
                in.transferTo(up);
                back.join();
            }
        } catch (IOException | RuntimeException e) {
            // the client or the service went away
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void pipe(Socket from, Socket to) {
        try {
            from.getInputStream().transferTo(to.getOutputStream());
            to.shutdownOutput();
        } catch (IOException e) {
            // closed
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        for (Socket s : open) {
            s.close();
        }
    }
}
