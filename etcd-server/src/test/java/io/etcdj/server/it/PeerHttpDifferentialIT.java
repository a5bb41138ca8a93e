package io.etcdj.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.harness.EtcdProcess;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * etcd's HTTP endpoints on the peer URL, against the real etcd 3.4: what a person or a tool reading
 * a member's peer port with curl gets. Texts and statuses must be etcd's; version numbers, IDs and
 * times differ by nature, so those are checked for their shape.
 */
class PeerHttpDifferentialIT {
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void peerEndpointsAnswerAsEtcdDoes() throws Exception {
        List<String> real;
        try (EtcdProcess m = EtcdProcess.realEtcd()) {
            m.start();
            real = answers(m);
        }
        List<String> ours;
        try (EtcdProcess m = EtcdProcess.ours()) {
            m.start();
            ours = answers(m);
        }
        assertEquals(String.join("\n", real), String.join("\n", ours));
    }

    /** Each request's answer, reduced to what must be the same on both servers; shapes checked here. */
    private static List<String> answers(EtcdProcess m) throws Exception {
        String peer = m.peerUrl();
        List<String> seen = new ArrayList<>();

        HttpResponse<String> version = send(peer, "GET", "/version");
        assertTrue(version.body().matches("\\{\"etcdserver\":\"3\\.\\d+\\.\\d+\",\"etcdcluster\":\"3\\.\\d+\\.\\d+\".*}"),
                m + ": " + version.body());
        seen.add("GET /version -> " + version.statusCode() + " " + contentType(version));

        HttpResponse<String> members = send(peer, "GET", "/members");
        String expected = Pattern.quote("[{\"id\":") + "\\d+" + Pattern.quote(",\"peerURLs\":[\"" + peer + "\"],\"name\":\"" + m.name()
                + "\",\"clientURLs\":[\"" + m.clientUrl() + "\"]}]\n");
        assertTrue(members.body().matches(expected), m + ": " + members.body());
        String clusterId = members.headers().firstValue("X-Etcd-Cluster-Id").orElse("");
        assertTrue(clusterId.matches("[0-9a-f]{1,16}"), m + ": X-Etcd-Cluster-Id " + clusterId);
        seen.add("GET /members -> " + members.statusCode() + " " + contentType(members));

        HttpResponse<String> probing = send(peer, "GET", "/raft/probing");
        String goTime = "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?(Z|[+-]\\d\\d:\\d\\d)";
        assertTrue(probing.body().matches("\\{\"OK\":true,\"Now\":\"" + goTime + "\"}\n"), m + ": " + probing.body());
        seen.add("GET /raft/probing -> " + probing.statusCode());

        String[][] others = {{"POST", "/members"}, {"PUT", "/version"}, {"GET", "/nothing"}, {"GET", "/metrics"}, {"GET", "/members/"}};
        for (String[] r : others) {
            HttpResponse<String> a = send(peer, r[0], r[1]);
            seen.add(r[0] + " " + r[1] + " -> " + a.statusCode() + " " + contentType(a) + " Allow=" + a.headers().firstValue("Allow")
                    .orElse("") + " " + a.body().replace("\n", "\\n"));
        }
        return seen;
    }

    private static String contentType(HttpResponse<?> r) {
        return r.headers().firstValue("Content-Type").orElse("");
    }

    private static HttpResponse<String> send(String base, String method, String path) throws Exception {
        HttpRequest req = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(10))
                .method(method, method.equals("GET") ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString("{}"))
                .build();
        return HTTP.send(req, HttpResponse.BodyHandlers.ofString());
    }
}
