package io.etcdj.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.lock.LockResponse;
import io.etcdj.api.etcdserverpb.AuthGrpc;
import io.etcdj.api.etcdserverpb.AuthenticateRequest;
import io.etcdj.api.etcdserverpb.KVGrpc;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.api.etcdserverpb.RangeResponse;
import io.etcdj.harness.Command;
import io.etcdj.harness.EtcdProcess;
import io.etcdj.harness.ProcessCluster;
import io.etcdj.harness.TempDirs;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Metadata;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.MetadataUtils;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Auth across a 3-member cluster of ours: users and roles made through one member hold on all,
 * a token issued by one member is accepted by the others (simple and JWT tokens), a JWT issued
 * before a permission change is refused as stale, the auth state survives a restart, the gateway
 * logs in and authorizes with the {@code Authorization} header, and jetcd (a client nobody here
 * wrote) logs in and takes a lock only where its user may write.
 */
class AuthClusterIT {
    private static final long TIMEOUT_S = 20;
    private static final Metadata.Key<String> TOKEN = Metadata.Key.of("token", Metadata.ASCII_STRING_MARSHALLER);

    /** root with the root role, alice with readwrite on the prefix /a/, auth enabled; through member 1. */
    private static void setUp(ProcessCluster c) {
        Etcdctl ctl = new Etcdctl(c.member(0).endpoint());
        ctl.run("user", "add", "root:rootpw").ok();
        ctl.run("user", "grant-role", "root", "root").ok();
        ctl.run("user", "add", "alice:alicepw").ok();
        ctl.run("role", "add", "r").ok();
        ctl.run("role", "grant-permission", "r", "readwrite", "/a/", "--prefix").ok();
        ctl.run("user", "grant-role", "alice", "r").ok();
        ctl.run("auth", "enable").ok();
    }

    private static ManagedChannel channel(EtcdProcess m) {
        return ManagedChannelBuilder.forTarget(m.endpoint()).usePlaintext().build();
    }

    private static String login(EtcdProcess m, String user, String password) {
        ManagedChannel ch = channel(m);
        try {
            return AuthGrpc.newBlockingStub(ch).withDeadlineAfter(TIMEOUT_S, TimeUnit.SECONDS)
                    .authenticate(AuthenticateRequest.newBuilder().setName(user).setPassword(password).build()).getToken();
        } finally {
            ch.shutdownNow();
        }
    }

    private static RangeResponse get(EtcdProcess m, String token, String key) {
        ManagedChannel ch = channel(m);
        try {
            Metadata md = new Metadata();
            md.put(TOKEN, token);
            return KVGrpc.newBlockingStub(ch).withInterceptors(MetadataUtils.newAttachHeadersInterceptor(md))
                    .withDeadlineAfter(TIMEOUT_S, TimeUnit.SECONDS)
                    .range(RangeRequest.newBuilder().setKey(ByteString.copyFromUtf8(key)).build());
        } finally {
            ch.shutdownNow();
        }
    }

    private static void put(EtcdProcess m, String token, String key, String value) {
        ManagedChannel ch = channel(m);
        try {
            Metadata md = new Metadata();
            if (token != null) {
                md.put(TOKEN, token);
            }
            KVGrpc.newBlockingStub(ch).withInterceptors(MetadataUtils.newAttachHeadersInterceptor(md))
                    .withDeadlineAfter(TIMEOUT_S, TimeUnit.SECONDS)
                    .put(PutRequest.newBuilder().setKey(ByteString.copyFromUtf8(key))
                            .setValue(ByteString.copyFromUtf8(value)).build());
        } finally {
            ch.shutdownNow();
        }
    }

    private static String error(Runnable r) {
        StatusRuntimeException e = assertThrows(StatusRuntimeException.class, r::run);
        return e.getStatus().getCode() + ": " + e.getStatus().getDescription();
    }

    @Test
    void simpleTokensHoldAcrossMembersAndAuthSurvivesARestart() throws Exception {
        try (ProcessCluster c = ProcessCluster.start(EtcdProcess.Binary.OURS, 3)) {
            setUp(c);
            String token = login(c.member(0), "alice", "alicepw");
            put(c.member(0), token, "/a/x", "1");
            for (EtcdProcess m : c.members()) {
                assertEquals("1", get(m, token, "/a/x").getKvs(0).getValue().toStringUtf8(), m.describe());
                assertEquals("PERMISSION_DENIED: etcdserver: permission denied", error(() -> get(m, token, "foo")));
            }
            assertEquals("UNAUTHENTICATED: etcdserver: invalid auth token", error(() -> get(c.member(1), "forged.7", "/a/x")));
            assertEquals("INVALID_ARGUMENT: etcdserver: user name is empty",
                    error(() -> put(c.member(2), null, "/a/x", "2")));

            c.member(1).stop();
            c.member(1).start();
            Etcdctl ctl = new Etcdctl(c.member(1).endpoint());
            assertEquals("/a/x\n1\n", ctl.run("--user", "alice:alicepw", "get", "/a/x").ok().stdout(),
                    "users, roles and the auth switch come back from the restarted member's backend");
            assertTrue(ctl.run("get", "/a/x").stderr().contains("etcdserver: user name is empty"));
            assertEquals("alice\nroot\n", ctl.run("--user", "root:rootpw", "user", "list").ok().stdout());

            // jetcd logs in by itself and its lock recipe runs as its user
            try (Client client = Client.builder().target("dns:///" + c.member(2).endpoint())
                    .user(bs("alice")).password(bs("alicepw")).build()) {
                long lease = client.getLeaseClient().grant(60).get(TIMEOUT_S, TimeUnit.SECONDS).getID();
                LockResponse l = client.getLockClient().lock(bs("/a/lock"), lease).get(TIMEOUT_S, TimeUnit.SECONDS);
                assertTrue(l.getKey().toString(StandardCharsets.UTF_8).startsWith("/a/lock/"));
                ExecutionException denied = assertThrows(ExecutionException.class,
                        () -> client.getLockClient().lock(bs("elsewhere"), lease).get(TIMEOUT_S, TimeUnit.SECONDS));
                assertTrue(String.valueOf(denied.getCause().getMessage()).contains("permission denied"),
                        String.valueOf(denied.getCause()));
            }

            // the gateway: log in, then the token in the Authorization header
            HttpClient http = HttpClient.newHttpClient();
            String base = "http://" + c.member(0).endpoint();
            HttpResponse<String> auth = http.send(HttpRequest.newBuilder(URI.create(base + "/v3/auth/authenticate"))
                    .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"alice\",\"password\":\"alicepw\"}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, auth.statusCode(), auth.body());
            String httpToken = auth.body().replaceAll(".*\"token\":\"([^\"]+)\".*", "$1");
            HttpResponse<String> range = http.send(HttpRequest.newBuilder(URI.create(base + "/v3/kv/range"))
                    .header("Authorization", httpToken)
                    .POST(HttpRequest.BodyPublishers.ofString("{\"key\":\"L2EveA==\"}")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, range.statusCode(), range.body());
            assertTrue(range.body().contains("\"value\":\"MQ==\""), range.body());
            HttpResponse<String> anon = http.send(HttpRequest.newBuilder(URI.create(base + "/v3/kv/range"))
                    .POST(HttpRequest.BodyPublishers.ofString("{\"key\":\"L2EveA==\"}")).build(), HttpResponse.BodyHandlers.ofString());
            assertFalse(anon.statusCode() == 200, anon.body());
            assertTrue(anon.body().contains("user name is empty"), anon.body());
        }
    }

    private static ByteSequence bs(String s) {
        return ByteSequence.from(s, StandardCharsets.UTF_8);
    }

    private static void run(String... command) throws Exception {
        Command.Result r = Command.of(command).mergeStderr().timeout(Duration.ofSeconds(TIMEOUT_S)).run();
        assertEquals(0, r.exitCode(), String.join(" ", command) + ": " + r.stdout());
    }

    @Test
    void jwtTokensOfOneMemberAreAcceptedByTheOthersUntilPermissionsChange() throws Exception {
        Path keys = Files.createTempDirectory("jwt-keys");
        try {
            // keys as operators make them: openssl's EC key (parameters block first) and its public key
            Path priv = keys.resolve("priv.pem");
            Path pub = keys.resolve("pub.pem");
            run("openssl", "ecparam", "-genkey", "-name", "prime256v1", "-out", priv.toString());
            run("openssl", "ec", "-in", priv.toString(), "-pubout", "-out", pub.toString());
            String spec = "--auth-token=jwt,pub-key=" + pub + ",priv-key=" + priv + ",sign-method=ES256,ttl=10m";
            try (ProcessCluster c = ProcessCluster.start(EtcdProcess.Binary.OURS, 3, spec)) {
                setUp(c);
                String token = login(c.member(0), "alice", "alicepw");
                assertEquals(3, token.split("\\.").length, "a JWT: header, claims, signature");
                put(c.member(2), token, "/a/j", "v");
                assertEquals("v", get(c.member(1), token, "/a/j").getKvs(0).getValue().toStringUtf8());
                new Etcdctl(c.member(0).endpoint()).run("--user", "root:rootpw", "role", "add", "other").ok();
                assertEquals("INVALID_ARGUMENT: etcdserver: revision of auth store is old",
                        error(() -> get(c.member(1), token, "/a/j")));
                String fresh = login(c.member(1), "alice", "alicepw");
                assertEquals("v", get(c.member(2), fresh, "/a/j").getKvs(0).getValue().toStringUtf8());
            }
        } finally {
            TempDirs.delete(keys);
        }
    }
}
