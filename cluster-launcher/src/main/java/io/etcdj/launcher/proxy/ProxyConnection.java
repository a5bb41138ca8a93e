package io.etcdj.launcher.proxy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Consumer;

/**
 * One proxied connection. Each direction has a reader that timestamps chunks into a queue and a
 * writer that sends each chunk once its delay has passed, so a delay adds latency without
 * limiting throughput, and chunks never overtake each other.
 */
final class ProxyConnection {
    private static final byte[] EOF = new byte[0];

    private record Chunk(long dueNanos, byte[] bytes) {}

    private final String destination;
    private final Optional<String> source;
    private final Socket client;
    private final Socket upstream;
    private final FaultRules rules;
    private final Consumer<ProxyConnection> onClose;
    private volatile boolean closed;

    ProxyConnection(String destination, Optional<String> source, Socket client, Socket upstream,
            FaultRules rules, Consumer<ProxyConnection> onClose) {
        this.destination = destination;
        this.source = source;
        this.client = client;
        this.upstream = upstream;
        this.rules = rules;
        this.onClose = onClose;
    }

    Optional<String> source() {
        return source;
    }

    void start() {
        String name = source.orElse("?") + "->" + destination;
        direction(client, upstream, name + "-up");
        direction(upstream, client, name + "-down");
    }

    void close() {
        if (closed) {
            return;
        }
        closed = true;
        FaultProxy.closeQuietly(client);
        FaultProxy.closeQuietly(upstream);
        onClose.accept(this);
    }

    private void direction(Socket from, Socket to, String name) {
        BlockingQueue<Chunk> queue = new LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> read(from, queue), "proxy-read-" + name);
        Thread writer = new Thread(() -> write(to, queue), "proxy-write-" + name);
        reader.setDaemon(true);
        writer.setDaemon(true);
        reader.start();
        writer.start();
    }

    private void read(Socket from, BlockingQueue<Chunk> queue) {
        byte[] buf = new byte[16 * 1024];
        long lastDue = 0;
        try (InputStream in = from.getInputStream()) {
            int n;
            while ((n = in.read(buf)) >= 0) {
                long due = System.nanoTime() + rules.delayMillis(destination, source) * 1_000_000L;
                lastDue = Math.max(due, lastDue); // a shorter delay must not reorder chunks
                queue.add(new Chunk(lastDue, Arrays.copyOf(buf, n)));
            }
        } catch (IOException e) {
            // reset or closed: fall through and end the connection
        }
        queue.add(new Chunk(lastDue, EOF));
    }

    private void write(Socket to, BlockingQueue<Chunk> queue) {
        try {
            OutputStream out = to.getOutputStream();
            while (true) {
                Chunk c = queue.take();
                if (c.bytes() == EOF) {
                    break;
                }
                long wait = c.dueNanos() - System.nanoTime();
                if (wait > 0) {
                    Thread.sleep(wait / 1_000_000L, (int) (wait % 1_000_000L));
                }
                if (closed) {
                    break;
                }
                out.write(c.bytes());
                out.flush();
            }
        } catch (IOException | InterruptedException e) {
            // the other side went away
        }
        close();
    }
}
