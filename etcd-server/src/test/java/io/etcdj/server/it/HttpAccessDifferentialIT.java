package io.etcdj.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.harness.EtcdProcess;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * --cors and --host-whitelist against the real etcd 3.4, request for request: a Host outside the
 * whitelist gets etcd's 421 text, allowed origins get CORS headers and others none, OPTIONS is
 * answered with the headers alone, and with the defaults every answer allows origin {@code *}.
 * Requests are written on a raw socket because the JDK's HTTP client cannot set Host. The
 * whitelist holds 127.0.0.1 because the harness itself asks the members for a leader over HTTP.
 */
class HttpAccessDifferentialIT {
    /** etcd 3.4 wants origins as URLs with a port; etcd 3.6 and ours take any string. */
    private static final String[] FLAGS = {"--cors=http://a.example:80,http://b.example:8080",
            "--host-whitelist=localhost,good.example,127.0.0.1"};

    @Test
    void hostWhitelistAndCorsAnswerAsEtcd() throws Exception {
        assertSame(FLAGS, List.of(
                new Req("GET", "/version", "10.1.2.3", "http://a.example:80", true),
                new Req("GET", "/version", "evil.example:12", null, true),
                new Req("POST", "/v3/kv/range", "evil.example", null, true),
                new Req("GET", "/version", "good.example", "http://a.example:80", false),
                new Req("GET", "/version", "localhost:2379", "http://b.example:8080", false),
                new Req("GET", "/health", "good.example:99", "http://c.example", false),
                new Req("OPTIONS", "/v3/kv/range", "good.example", "http://b.example:8080", true),
                new Req("POST", "/v3/kv/range", "good.example", "http://a.example", false)));
    }

    @Test
    void byDefaultEveryHostAndOriginIsAllowed() throws Exception {
        assertSame(new String[0], List.of(
                new Req("GET", "/version", "anything.example", "http://x.example", false),
                new Req("OPTIONS", "/version", "anything.example", null, true),
                new Req("GET", "/health", "127.0.0.1", null, false)));
    }

    /** One request; {@code compareBody}: the answer's body is etcd's text, not version-specific JSON. */
    record Req(String method, String path, String host, String origin, boolean compareBody) {
    }

    private static void assertSame(String[] flags, List<Req> requests) throws Exception {
        List<String> real;
        try (EtcdProcess m = EtcdProcess.realEtcd(flags)) {
            m.start();
            real = run(m, requests);
        }
        List<String> ours;
        try (EtcdProcess m = EtcdProcess.ours(flags)) {
            m.start();
            ours = run(m, requests);
        }
        assertEquals(String.join("\n", real), String.join("\n", ours));
    }

    private static List<String> run(EtcdProcess m, List<Req> requests) throws IOException {
        List<String> seen = new ArrayList<>();
        for (Req r : requests) {
            seen.add(r + " -> " + exchange(m.endpoint(), r));
        }
        return seen;
    }

    private static String exchange(String endpoint, Req r) throws IOException {
        String[] hp = endpoint.split(":");
        String body = r.method().equals("POST") ? "{\"key\":\"YQ==\"}" : "";
        StringBuilder req = new StringBuilder(r.method() + " " + r.path() + " HTTP/1.1\r\nHost: " + r.host() + "\r\n");
        if (r.origin() != null) {
            req.append("Origin: ").append(r.origin()).append("\r\n");
        }
        req.append("Content-Length: ").append(body.length()).append("\r\nConnection: close\r\n\r\n").append(body);
        try (Socket s = new Socket(hp[0], Integer.parseInt(hp[1]))) {
            s.setSoTimeout(15_000);
            OutputStream out = s.getOutputStream();
            out.write(req.toString().getBytes(StandardCharsets.UTF_8));
            out.flush();
            InputStream in = s.getInputStream();
            String raw = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            int split = raw.indexOf("\r\n\r\n");
            assertTrue(split > 0, "no HTTP answer: " + raw);
            String[] head = raw.substring(0, split).split("\r\n");
            TreeMap<String, String> kept = new TreeMap<>();
            for (int i = 1; i < head.length; i++) {
                int colon = head[i].indexOf(':');
                String name = head[i].substring(0, colon).toLowerCase(Locale.ROOT);
                if (name.startsWith("access-control-") || name.equals("x-content-type-options")
                        || (r.compareBody() && name.equals("content-type"))) {
                    kept.put(name, head[i].substring(colon + 1).trim());
                }
            }
            String status = head[0].split(" ")[1];
            return status + " " + kept + (r.compareBody() ? " body=" + raw.substring(split + 4).replace("\n", "\\n") : "");
        }
    }
}
