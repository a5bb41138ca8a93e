package io.etcdj.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.harness.EtcdProcess;
import io.etcdj.harness.Eventually;
import io.etcdj.harness.ProcessCluster;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * /livez and /readyz as etcd 3.6 serves them (server/etcdserver/api/etcdhttp/health.go): livez runs
 * serializable_read; readyz runs data_corruption, serializable_read, linearizable_read and
 * non_learner. A pass answers "ok\n", with ?verbose the "[+]CHECK ok" lines first; a failure
 * answers 503 with every line run ("[-]CHECK failed: REASON") and http.Error's newline; each check
 * has its own path; ?exclude=CHECK leaves one out (not listed), an unknown one is only logged.
 * etcd 3.4 has neither endpoint, so these are etcd 3.6's documented texts, not a comparison.
 */
class HealthEndpointsIT {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private static HttpResponse<String> get(EtcdProcess m, String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://" + m.endpoint() + path)).timeout(Duration.ofSeconds(20))
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The check lines of a body, sorted: etcd runs its checks in Go map order, so the order is not part of the answer. */
    private static List<String> lines(String body) {
        return Arrays.stream(body.split("\n")).filter(l -> l.startsWith("[")).sorted().toList();
    }

    @Test
    void aHealthyMembersAnswers() throws Exception {
        try (EtcdProcess m = EtcdProcess.ours()) {
            m.start();
            HttpResponse<String> livez = get(m, "/livez");
            assertEquals(200, livez.statusCode());
            assertEquals("ok\n", livez.body());
            assertEquals("text/plain; charset=utf-8", livez.headers().firstValue("content-type").orElse(""));
            assertEquals("ok\n", get(m, "/readyz").body());

            HttpResponse<String> verbose = get(m, "/readyz?verbose");
            assertEquals(200, verbose.statusCode());
            assertTrue(verbose.body().endsWith(" ok\nok\n"), "the check lines, then ok: " + verbose.body());
            assertEquals(List.of("[+]data_corruption ok", "[+]linearizable_read ok", "[+]non_learner ok", "[+]serializable_read ok"),
                    lines(verbose.body()));
            assertEquals("[+]serializable_read ok\nok\n", get(m, "/livez?verbose").body());

            HttpResponse<String> excluded = get(m, "/readyz?exclude=linearizable_read&exclude=non_learner&verbose");
            assertEquals(List.of("[+]data_corruption ok", "[+]serializable_read ok"), lines(excluded.body()));
            assertEquals("[+]serializable_read ok\nok\n", get(m, "/readyz?exclude=data_corruption&exclude=linearizable_read"
                    + "&exclude=non_learner&verbose").body());
            // one name per exclude value: a comma list names no check, so nothing is left out
            assertEquals(4, lines(get(m, "/readyz?exclude=linearizable_read,non_learner&verbose").body()).size());
            HttpResponse<String> unknown = get(m, "/readyz?exclude=no_such_check");
            assertEquals(200, unknown.statusCode());
            assertEquals("ok\n", unknown.body());
            Eventually.until("the unknown exclusion logged", Duration.ofSeconds(10), () -> Files.readString(m.logFile())
                    .contains("\"msg\":\"some health checks cannot be excluded\",\"missing-health-checks\":\"\\\"no_such_check\\\"\""));

            for (String check : List.of("data_corruption", "serializable_read", "linearizable_read", "non_learner")) {
                HttpResponse<String> one = get(m, "/readyz/" + check + "?verbose");
                assertEquals(200, one.statusCode(), check);
                assertEquals("[+]" + check + " ok\nok\n", one.body());
                assertEquals("ok\n", get(m, "/readyz/" + check).body());
            }
            assertEquals("[+]serializable_read ok\nok\n", get(m, "/livez/serializable_read?verbose").body());
            assertEquals(404, get(m, "/livez/linearizable_read").statusCode(), "livez has no such check");
            assertEquals(404, get(m, "/readyz/no_such_check").statusCode());

            HttpResponse<String> post = HTTP.send(HttpRequest.newBuilder(URI.create("http://" + m.endpoint() + "/readyz"))
                    .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(405, post.statusCode());
            assertEquals("Method Not Allowed\n", post.body());
            assertEquals("GET", post.headers().firstValue("allow").orElse(""));
        }
    }

    @Test
    void aLearnerIsLiveButNotReady() throws Exception {
        try (ProcessCluster c = ProcessCluster.start(EtcdProcess.Binary.OURS, 1)) {
            EtcdProcess learner = c.newMember("learner");
            Etcdctl.Result add = new Etcdctl(c.endpoints()).run("member", "add", "learner", "--peer-urls=" + learner.peerUrl(),
                    "--learner").ok();
            Matcher ic = Pattern.compile("ETCD_INITIAL_CLUSTER=\"([^\"]+)\"").matcher(add.stdout());
            assertTrue(ic.find(), add.stdout());
            c.startJoining(learner, ic.group(1));
            HttpResponse<String> readyz = Eventually.get("the learner's /readyz", Duration.ofSeconds(30), () -> {
                HttpResponse<String> r = get(learner, "/readyz");
                return r.body().contains("non_learner") ? r : null;
            });
            assertEquals(503, readyz.statusCode());
            assertTrue(readyz.body().contains("[-]non_learner failed: not supported for learner\n"), readyz.body());
            assertTrue(readyz.body().endsWith("\n\n"), "http.Error's newline after the list: " + readyz.body());
            assertFalse(readyz.body().contains("check failed"), "no Kubernetes summary line: " + readyz.body());
            assertEquals(503, get(learner, "/readyz/non_learner").statusCode());
            assertEquals("ok\n", get(learner, "/readyz?exclude=non_learner&exclude=linearizable_read").body());
            assertEquals("ok\n", get(learner, "/livez").body());
            assertEquals("ok\n", get(c.member(0), "/readyz").body(), "the voting member is ready");
        }
    }
}
