package io.etcdj.launcher.dashboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.harness.TempDirs;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The server without a cluster: its files, its answers, and what it refuses. */
class DashboardServerTest {
    private Path dir;
    private Dashboard dashboard;

    @BeforeEach
    void start() throws IOException {
        dir = TempDirs.create("dashboard-test");
        dashboard = Dashboard.start(dir.resolve("launcher-state.json"), 0);
    }

    @AfterEach
    void stop() throws IOException {
        dashboard.close();
        TempDirs.delete(dir);
    }

    @Test
    void servesThePageFromTheJar() throws IOException {
        HttpURLConnection c = open("/");
        assertEquals(200, c.getResponseCode());
        assertTrue(c.getContentType().startsWith("text/html"));
        String page = read(c.getInputStream());
        assertTrue(page.contains("<script type=\"module\" src=\"dashboard.js\">"), page);
        assertEquals(200, open("/charts.js").getResponseCode());
        assertEquals(404, open("/io/etcdj/launcher/Main.class").getResponseCode());
        assertEquals(404, open("/../pom.xml").getResponseCode());
    }

    @Test
    void reportsThatNoClusterRuns() throws IOException {
        HttpURLConnection c = open("/api/cluster");
        assertEquals(200, c.getResponseCode());
        String body = read(c.getInputStream());
        assertTrue(body.contains("\"running\":false"), body);
        assertTrue(body.contains("dashboard started"), body);
    }

    @Test
    void actionsWithoutAClusterFailClearly() throws IOException {
        HttpURLConnection c = post("/api/action", "{\"verb\":\"kill\",\"member\":\"infra1\"}", true);
        assertEquals(409, c.getResponseCode());
        assertTrue(read(c.getErrorStream()).contains("no cluster is running"));
    }

    @Test
    void refusesChangesOtherPagesCouldSend() throws IOException {
        // a cross-site form post can carry neither the custom header nor a JSON content type
        HttpURLConnection c = post("/api/action", "{\"verb\":\"kill\",\"member\":\"infra1\"}", false);
        assertEquals(403, c.getResponseCode());
        assertEquals(400, post("/api/action", "not json", true).getResponseCode());
    }

    @Test
    void refusesOtherHostNames() throws IOException {
        // what a DNS-rebinding page would send: its own host name for our address
        try (Socket s = new Socket("127.0.0.1", dashboard.url().getPort())) {
            OutputStream out = s.getOutputStream();
            out.write("GET /api/cluster HTTP/1.1\r\nHost: attacker.example:80\r\nConnection: close\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String answer = read(s.getInputStream());
            assertTrue(answer.startsWith("HTTP/1.1 403"), answer);
        }
    }

    private HttpURLConnection open(String path) throws IOException {
        return (HttpURLConnection) URI.create(dashboard.url() + path.substring(1)).toURL().openConnection();
    }

    private HttpURLConnection post(String path, String body, boolean asThePage) throws IOException {
        HttpURLConnection c = open(path);
        c.setRequestMethod("POST");
        c.setDoOutput(true);
        c.setRequestProperty("Content-Type", asThePage ? "application/json" : "text/plain");
        if (asThePage) {
            c.setRequestProperty(Dashboard.ACTION_HEADER, "1");
        }
        try (OutputStream out = c.getOutputStream()) {
            out.write(body.getBytes(StandardCharsets.UTF_8));
        }
        return c;
    }

    private static String read(InputStream in) throws IOException {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
