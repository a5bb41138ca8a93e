package io.etcdj.server.embed;

import io.etcdj.server.Main;
import io.etcdj.server.transport.PeerTransport;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The build runs this once to record which classes a member loads, into the AppCDS archive
 * bin/etcd uses (target/app.jsa). Not a user command.
 *
 * <p>It trains on exactly what a fresh member does until it serves: the etcd command's own path
 * (flag parsing, logging set-up, start), then the {@code /health} probes a supervisor or a script
 * makes over HTTP on the client port, then a client's first unary KV and lease calls
 * ({@link CdsGrpcCalls}); then it halts. The archive should hold what every member loads and
 * nothing else: a class that is archived but not loaded still sits among the archived ones and is
 * mapped in with them (an early training that also served the common requests, on the client port
 * of the time, cost 16 MB of resident memory), and a class loaded but not archived is parsed and
 * verified from the jar at each start, or at a member's first requests. Halting instead of closing
 * the member keeps the shutdown path's classes out; the JVM writes the archive on halt too.
 */
public final class CdsTraining {
    /** How long the throwaway member may take to report healthy (a loaded build machine). */
    private static final long HEALTHY_WITHIN_MILLIS = 120_000;
    /** Probes after the first healthy one, as a supervisor's first checks would come. */
    private static final int PROBES = 5;
    /** How long one of the training's gRPC calls may take (a loaded build machine). */
    private static final int CALL_TIMEOUT_MILLIS = 30_000;

    private CdsTraining() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Files.createTempDirectory("etcd-cds");
        int[] clients = {freePort(), freePort()};
        int[] peers = {freePort(), freePort()};
        String cluster = "cds0=http://127.0.0.1:" + peers[0] + ",cds1=http://127.0.0.1:" + peers[1];
        // Two members of one cluster: a member of a cluster also loads the peer side (dialling its
        // peers, their streams); a lone member never does.
        for (int m = 0; m < 2; m++) {
            String[] member = {
                "--name", "cds" + m, "--data-dir", dir.resolve("data" + m).toString(),
                "--listen-client-urls", "http://127.0.0.1:" + clients[m],
                "--advertise-client-urls", "http://127.0.0.1:" + clients[m],
                "--listen-peer-urls", "http://127.0.0.1:" + peers[m],
                "--initial-advertise-peer-urls", "http://127.0.0.1:" + peers[m],
                "--initial-cluster", cluster,
                "--log-level", "error"};
            // the etcd command itself, as bin/etcd runs it; it returns only if the member fails to start
            Thread command = new Thread(() -> Main.main(member), "cds-member-" + m);
            command.setDaemon(true);
            command.start();
        }
        int client = clients[0];
        int status = 1;
        try {
            long deadline = System.currentTimeMillis() + HEALTHY_WITHIN_MILLIS;
            while (!healthy(clients[0]) || !healthy(clients[1])) {
                if (System.currentTimeMillis() > deadline) {
                    throw new IOException("the training members did not report healthy within "
                            + HEALTHY_WITHIN_MILLIS / 1000 + " s");
                }
                Thread.sleep(20);
            }
            for (int i = 0; i < PROBES; i++) {
                healthy(client);
            }
            // A client's first calls: the request path's classes are archived, not verified from
            // the jar by every fresh member while it serves its first requests.
            try (CdsGrpcCalls calls = CdsGrpcCalls.connect(client, CALL_TIMEOUT_MILLIS)) {
                calls.trainKvAndLease();
            }
            // A member starting beside running peers asks them for their cluster (the conflicting
            // cluster check): the gRPC client's call path, which the two members started together
            // here never complete (neither is up when the other asks).
            PeerTransport.fetchMembers("http://127.0.0.1:" + peers[1], HEALTHY_WITHIN_MILLIS, null);
            status = 0;
        } catch (IOException e) {
            System.err.println("CdsTraining: " + e.getMessage());
        } finally {
            // the member still has its files open: unlinking them is fine on the systems this runs on
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
        Runtime.getRuntime().halt(status);
    }

    /** One GET /health as curl sends it; true when the member answered healthy. */
    static boolean healthy(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
            s.setSoTimeout(5000);
            OutputStream out = s.getOutputStream();
            out.write(("GET /health HTTP/1.1\r\nHost: 127.0.0.1:" + port
                    + "\r\nUser-Agent: curl/7.88.1\r\nAccept: */*\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            String answer = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return answer.startsWith("HTTP/1.1 200") && answer.contains("\"health\":\"true\"");
        } catch (IOException e) {
            return false;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
