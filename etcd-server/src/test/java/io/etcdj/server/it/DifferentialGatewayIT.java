package io.etcdj.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.AlarmRequest;
import io.etcdj.api.etcdserverpb.AlarmResponse;
import io.etcdj.api.etcdserverpb.DefragmentRequest;
import io.etcdj.api.etcdserverpb.MemberListRequest;
import io.etcdj.api.etcdserverpb.StatusRequest;
import io.etcdj.harness.EtcdClusterExtension;
import io.etcdj.harness.EtcdProcess;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Base64;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The HTTP/JSON gateway (grpc-gateway style, on the client port) and /health and /version, against the
 * real etcd 3.4 and ours. Status codes and normalised bodies must match. The gateway encodes bytes as
 * base64 and 64-bit integers as strings.
 */
class DifferentialGatewayIT {
    @RegisterExtension
    static final EtcdClusterExtension SERVERS = EtcdClusterExtension.of(EtcdProcess.realEtcd(), EtcdProcess.ours());
    private static final ObjectMapper JSON = new ObjectMapper();
    private static Differential diff;

    @BeforeAll
    static void connect() {
        diff = Differential.connect(SERVERS.member(0), SERVERS.member(1));
    }

    @AfterAll
    static void disconnect() throws InterruptedException {
        diff.close();
    }

    @BeforeEach
    void scenario(TestInfo test) {
        diff.startScenario(test.getDisplayName());
    }

    private static String b64(String name) {
        return Base64.getEncoder().encodeToString(diff.key(name).toByteArray());
    }

    private static String prefixEnd() {
        byte[] b = diff.key("").toByteArray();
        b[b.length - 1]++;
        return Base64.getEncoder().encodeToString(b);
    }

    private static String v(String value) {
        return Base64.getEncoder().encodeToString(ByteString.copyFromUtf8(value).toByteArray());
    }

    private static void put(String key, String value) {
        diff.sameHttpPost("/v3/kv/put", "{\"key\":\"" + b64(key) + "\",\"value\":\"" + v(value) + "\"}");
    }

    @Test
    void kvPutRangeDeleteRange() {
        put("a", "1");
        diff.sameHttpPost("/v3/kv/put", "{\"key\":\"" + b64("a") + "\",\"value\":\"" + v("2") + "\",\"prev_kv\":true}");
        put("b", "3");
        put("c", "4");
        diff.sameHttpPost("/v3/kv/range", "{\"key\":\"" + b64("a") + "\"}");
        diff.sameHttpPost("/v3/kv/range", "{\"key\":\"" + b64("") + "\",\"range_end\":\"" + prefixEnd() + "\",\"limit\":2}");
        diff.sameHttpPost("/v3/kv/range", "{\"key\":\"" + b64("") + "\",\"range_end\":\"" + prefixEnd()
                + "\",\"sort_order\":\"DESCEND\",\"sort_target\":\"MOD\",\"keys_only\":true}");
        diff.sameHttpPost("/v3/kv/range", "{\"key\":\"" + b64("") + "\",\"range_end\":\"" + prefixEnd() + "\",\"count_only\":true}");
        diff.sameHttpPost("/v3/kv/range", s -> "{\"key\":\"" + b64("a") + "\",\"revision\":\"" + Differential.rev(s, 1) + "\"}");
        diff.sameHttpPost("/v3/kv/deleterange", "{\"key\":\"" + b64("a") + "\",\"prev_kv\":true}");
        diff.sameHttpPost("/v3/kv/deleterange", "{\"key\":\"" + b64("") + "\",\"range_end\":\"" + prefixEnd() + "\"}");
        diff.sameHttpPost("/v3/kv/range", "{\"key\":\"" + b64("") + "\",\"range_end\":\"" + prefixEnd() + "\"}");
    }

    @Test
    void kvTxn() {
        put("k", "v");
        String txn = "{\"compare\":[{\"key\":\"" + b64("k") + "\",\"target\":\"VALUE\",\"result\":\"EQUAL\",\"value\":\"" + v("v") + "\"}],"
                + "\"success\":[{\"request_put\":{\"key\":\"" + b64("k") + "\",\"value\":\"" + v("w") + "\"}},"
                + "{\"request_range\":{\"key\":\"" + b64("k") + "\"}}],"
                + "\"failure\":[{\"request_delete_range\":{\"key\":\"" + b64("k") + "\"}}]}";
        diff.sameHttpPost("/v3/kv/txn", txn);
        diff.sameHttpPost("/v3/kv/txn", txn); // the value is now "w": the failure branch runs
        diff.sameHttpPost("/v3/kv/txn",
                "{\"compare\":[{\"key\":\"" + b64("k") + "\",\"target\":\"VERSION\",\"result\":\"LESS\",\"version\":\"1\"}],"
                + "\"success\":[{\"request_put\":{\"key\":\"" + b64("k") + "\",\"value\":\"" + v("created") + "\"}}]}");
    }

    @Test
    void kvErrors() {
        put("k", "v");
        diff.sameHttpPost("/v3/kv/range", "{}");
        diff.sameHttpPost("/v3/kv/put", "{\"value\":\"" + v("x") + "\"}");
        diff.sameHttpPost("/v3/kv/range", s -> "{\"key\":\"" + b64("k") + "\",\"revision\":\"" + Differential.rev(s, 1000) + "\"}");
        diff.sameHttpPost("/v3/kv/txn",
                "{\"success\":[{\"request_put\":{\"key\":\"" + b64("d") + "\"}},{\"request_put\":{\"key\":\"" + b64("d") + "\"}}]}");
        diff.sameHttpPost("/v3/kv/compaction", s -> "{\"revision\":\"" + Differential.rev(s, 1000) + "\"}");
    }

    @Test
    void malformedBodiesOversizeBodiesAndAKeepAliveThatEnds() {
        diff.sameHttpPost("/v3/kv/range", "{\"key\":123}");
        diff.sameHttpPost("/v3/kv/range", "{\"key\":\"a");
        diff.sameHttpPost("/v3/kv/range", "{\"key\":}");
        diff.sameHttpPost("/v3/kv/range", "{\"key\":\"" + b64("k") + "\",\"limit\":true}");
        diff.sameHttpPost("/v3/kv/put", "{\"key\":\"" + b64("big") + "\",\"value\":\"" + "A".repeat(3_000_000) + "\"}");
        diff.sameHttpPost("/v3/lease/grant", "{\"TTL\":600,\"ID\":\"" + 0x3000_0101L + "\"}");
        // the request body is the whole client stream: the response ends after the one answer
        diff.sameHttpPost("/v3/lease/keepalive", "{\"ID\":\"" + 0x3000_0101L + "\"}");
        diff.sameHttpPost("/v3/lease/revoke", "{\"ID\":\"" + 0x3000_0101L + "\"}");
    }

    @Test
    void leaseGrantTimeToLiveRevoke() {
        diff.sameHttpPost("/v3/lease/grant", "{\"TTL\":600,\"ID\":\"" + 0x3000_0001L + "\"}");
        diff.sameHttpPost("/v3/lease/grant", "{\"TTL\":600,\"ID\":\"" + 0x3000_0001L + "\"}");
        diff.sameHttpPost("/v3/lease/grant", "{\"TTL\":600}");
        diff.sameHttpPost("/v3/kv/put", "{\"key\":\"" + b64("leased") + "\",\"lease\":\"" + 0x3000_0001L + "\"}");
        diff.sameHttpPost("/v3/lease/timetolive", "{\"ID\":\"" + 0x3000_0fffL + "\",\"keys\":true}");
        diff.sameHttpPost("/v3/lease/revoke", "{\"ID\":\"" + 0x3000_0001L + "\"}");
        diff.sameHttpPost("/v3/lease/revoke", "{\"ID\":\"" + 0x3000_0001L + "\"}");
        diff.sameHttpPost("/v3/kv/range", "{\"key\":\"" + b64("leased") + "\"}");
    }

    @Test
    void maintenanceStatus() throws Exception {
        String status = diff.sameHttpPost("/v3/maintenance/status", "{}");
        assertTrue(status.contains("\"leader\" : \"<member>\""), status);
        diff.sameOk("gRPC status", s -> s.grpc().maintenance().status(StatusRequest.getDefaultInstance()));
        // etcd 3.4 sends the alarm list without a header (etcd issue 11581, fixed after 3.4): compare the
        // alarms, and require the header from ours
        diff.sameOk("alarm list", s -> s.grpc().maintenance().alarm(AlarmRequest.newBuilder()
                .setAction(AlarmRequest.AlarmAction.GET).build()).toBuilder().clearHeader().build());
        AlarmResponse ourAlarms = diff.ours.grpc().maintenance().alarm(AlarmRequest.newBuilder()
                .setAction(AlarmRequest.AlarmAction.GET).build());
        assertTrue(ourAlarms.getHeader().getMemberId() != 0, ourAlarms.toString());
        JsonNode ours = JSON.readTree(body(diff.ours, "POST", "/v3/maintenance/status", "{}"));
        assertTrue(ours.get("version").asText().startsWith("3.6."), "ours reports the etcd version it implements: " + ours);
    }

    @Test
    void defragment() {
        diff.sameOk("defragment", s -> s.grpc().maintenance().defragment(DefragmentRequest.getDefaultInstance()));
    }

    @Test
    void memberList() {
        diff.sameOk("gRPC member list", s -> s.grpc().cluster().memberList(MemberListRequest.getDefaultInstance()));
        String members = diff.sameHttpPost("/v3/cluster/member/list", "{}");
        assertTrue(members.contains("\"name\" : \"it\""), members);
    }

    @Test
    void healthAndVersion() throws Exception {
        String health = diff.sameHttpGet("/health");
        assertTrue(health.contains("\"health\" : \"true\""), health);
        String version = diff.sameHttpGet("/version");
        assertTrue(version.contains("\"etcdserver\" : \"<version>\""), version);

        // the 3.5+/3.6 fields the normaliser drops when comparing with 3.4 must be there in ours
        JsonNode ourHealth = JSON.readTree(body(diff.ours, "GET", "/health", null));
        assertEquals("", ourHealth.path("reason").asText("missing"), ourHealth.toString());
        JsonNode ourVersion = JSON.readTree(body(diff.ours, "GET", "/version", null));
        assertTrue(ourVersion.path("storage").asText().startsWith("3.6"), ourVersion.toString());
        assertTrue(ourVersion.path("etcdcluster").asText().startsWith("3.6"), ourVersion.toString());
    }

    private static String body(Differential.Side side, String method, String path, String body) throws Exception {
        HttpRequest req = HttpRequest.newBuilder(URI.create(side.grpc().member().clientUrl() + path))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body)).build();
        return HttpClient.newHttpClient().send(req, HttpResponse.BodyHandlers.ofString()).body();
    }
}
