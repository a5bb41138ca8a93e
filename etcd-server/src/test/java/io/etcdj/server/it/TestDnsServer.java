package io.etcdj.server.it;

import io.etcdj.harness.FreePorts;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A DNS server on 127.0.0.1 for tests: answers SRV and A questions from records the test adds
 * (NXDOMAIN for anything else), over UDP. Our processes are pointed at it with
 * {@code -Detcdj.dns.server=127.0.0.1:PORT}; the machine's resolver is never involved. Bound to
 * port 53 of a loopback address (root only), it can also serve Go programs, which ask port 53 of
 * the resolv.conf servers (see {@link #resolvConf()}); etcdctl's tests use it from the test jar.
 */
public final class TestDnsServer implements AutoCloseable {
    private static final int TYPE_A = 1;
    private static final int TYPE_SRV = 33;

    private record Srv(int priority, int weight, int port, String target) {
    }

    private final Map<String, List<Srv>> srv = new ConcurrentHashMap<>();
    private final Map<String, byte[]> a = new ConcurrentHashMap<>();
    private final DatagramSocket socket;
    private final Thread thread;

    /** A server on port 53 of {@code address} (a loopback address other tests do not use). */
    public TestDnsServer(InetAddress address) throws SocketException {
        socket = new DatagramSocket(new InetSocketAddress(address, 53));
        thread = new Thread(this::serve, "test-dns");
        thread.setDaemon(true);
        thread.start();
    }

    public TestDnsServer() throws SocketException {
        DatagramSocket s = null;
        for (int i = 0; i < 50 && s == null; i++) {
            try {
                s = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), FreePorts.pick()));
            } catch (SocketException e) {
                // the port is taken for UDP: another one
            }
        }
        if (s == null) {
            throw new SocketException("no free UDP port on 127.0.0.1");
        }
        socket = s;
        thread = new Thread(this::serve, "test-dns");
        thread.setDaemon(true);
        thread.start();
    }

    public int port() {
        return socket.getLocalPort();
    }

    /** The JVM option that points our processes at this server. */
    public String jvmOption() {
        return "-Detcdj.dns.server=" + socket.getLocalAddress().getHostAddress() + ":" + port();
    }

    /** A resolv.conf naming this server (meaningful on port 53 only). */
    public String resolvConf() {
        return "nameserver " + socket.getLocalAddress().getHostAddress() + "\n";
    }

    public void addSrv(String name, String target, int port) {
        srv.computeIfAbsent(name.toLowerCase(Locale.ROOT), n -> new ArrayList<>()).add(new Srv(0, 0, port, target));
    }

    public void addA(String name, String ipv4) throws IOException {
        a.put(name.toLowerCase(Locale.ROOT), InetAddress.getByName(ipv4).getAddress());
    }

    private void serve() {
        byte[] buf = new byte[1500];
        while (!socket.isClosed()) {
            DatagramPacket p = new DatagramPacket(buf, buf.length);
            try {
                socket.receive(p);
                byte[] reply = answer(Arrays.copyOf(p.getData(), p.getLength()));
                socket.send(new DatagramPacket(reply, reply.length, p.getSocketAddress()));
            } catch (IOException | RuntimeException e) {
                // closed, or a malformed query: nothing to answer
            }
        }
    }

    private byte[] answer(byte[] q) throws IOException {
        int pos = 12;
        StringBuilder name = new StringBuilder();
        while (q[pos] != 0) {
            int len = q[pos] & 0xff;
            if (name.length() > 0) {
                name.append('.');
            }
            name.append(new String(q, pos + 1, len, StandardCharsets.US_ASCII));
            pos += len + 1;
        }
        pos++;
        int qtype = ((q[pos] & 0xff) << 8) | (q[pos + 1] & 0xff);
        int questionEnd = pos + 4;
        String key = name.toString().toLowerCase(Locale.ROOT);
        ByteArrayOutputStream answers = new ByteArrayOutputStream();
        int count = 0;
        if (qtype == TYPE_SRV && srv.containsKey(key)) {
            for (Srv r : srv.get(key)) {
                ByteArrayOutputStream rdata = new ByteArrayOutputStream();
                short16(rdata, r.priority());
                short16(rdata, r.weight());
                short16(rdata, r.port());
                labels(rdata, r.target());
                record(answers, TYPE_SRV, rdata.toByteArray());
                count++;
            }
        } else if (qtype == TYPE_A && a.containsKey(key)) {
            record(answers, TYPE_A, a.get(key));
            count++;
        }
        boolean known = srv.containsKey(key) || a.containsKey(key);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(q, 0, 2);
        // response, authoritative, recursion desired and available; NXDOMAIN for unknown names
        short16(out, 0x8580 | (known ? 0 : 3));
        short16(out, 1);
        short16(out, count);
        short16(out, 0);
        short16(out, 0);
        out.write(q, 12, questionEnd - 12);
        answers.writeTo(out);
        return out.toByteArray();
    }

    private static void record(ByteArrayOutputStream out, int type, byte[] rdata) throws IOException {
        short16(out, 0xC00C);
        short16(out, type);
        short16(out, 1);
        out.write(new byte[] {0, 0, 0, 60});
        short16(out, rdata.length);
        out.write(rdata);
    }

    private static void labels(ByteArrayOutputStream out, String name) throws IOException {
        for (String label : name.split("\\.")) {
            if (!label.isEmpty()) {
                out.write(label.length());
                out.write(label.getBytes(StandardCharsets.US_ASCII));
            }
        }
        out.write(0);
    }

    private static void short16(ByteArrayOutputStream out, int v) {
        out.write((v >> 8) & 0xff);
        out.write(v & 0xff);
    }

    @Override
    public void close() {
        socket.close();
    }
}
