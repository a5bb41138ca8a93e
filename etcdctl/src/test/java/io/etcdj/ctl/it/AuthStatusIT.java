package io.etcdj.ctl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.api.etcdserverpb.AuthGrpc;
import io.etcdj.api.etcdserverpb.AuthStatusRequest;
import io.etcdj.api.etcdserverpb.AuthStatusResponse;
import io.etcdj.api.etcdserverpb.ResponseHeader;
import io.etcdj.ctl.RootCommand;
import io.etcdj.ctl.cli.EtcdctlApp;
import io.grpc.Grpc;
import io.grpc.InsecureServerCredentials;
import io.grpc.Server;
import io.grpc.stub.StreamObserver;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code auth status} (etcdctl 3.5). The AuthStatus RPC arrived with etcd 3.5's server, so neither the
 * etcd 3.4 at hand nor etcdj's server answers it: the formats are checked against a gRPC Auth service
 * on a loopback port that answers with a fixed response, and the real etcd 3.4 must produce the Go
 * client's report of an unknown method.
 */
class AuthStatusIT {

    private static final AuthStatusResponse ENABLED = AuthStatusResponse.newBuilder()
            .setHeader(ResponseHeader.newBuilder().setClusterId(11).setMemberId(22).setRevision(33).setRaftTerm(4))
            .setEnabled(true).setAuthRevision(7).build();

    private static Server canned;
    private static RealEtcd etcd;

    @BeforeAll
    static void start() throws Exception {
        canned = Grpc.newServerBuilderForPort(0, InsecureServerCredentials.create())
                .addService(new AuthGrpc.AuthImplBase() {
                    @Override
                    public void authStatus(AuthStatusRequest request, StreamObserver<AuthStatusResponse> out) {
                        out.onNext(ENABLED);
                        out.onCompleted();
                    }
                }).build().start();
        etcd = RealEtcd.start("auth-status");
    }

    @AfterAll
    static void stop() throws InterruptedException {
        if (etcd != null) {
            etcd.close();
        }
        if (canned != null) {
            canned.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
    }

    private record Run(byte[] out, String err, int code) {
        String text() {
            return new String(out, StandardCharsets.UTF_8);
        }
    }

    private static Run run(String endpoint, String... args) {
        List<String> all = new ArrayList<>(List.of("--endpoints=" + endpoint));
        all.addAll(List.of(args));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = new EtcdctlApp(RootCommand::tree).run(all.toArray(new String[0]),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                new ByteArrayInputStream(new byte[0]), Map.of());
        return new Run(out.toByteArray(), err.toString(StandardCharsets.UTF_8), code);
    }

    private static Run canned(String... args) {
        return run("127.0.0.1:" + ((InetSocketAddress) canned.getListenSockets().get(0)).getPort(), args);
    }

    @Test
    void printsEachFormat() throws Exception {
        assertEquals("Authentication Status: true\nAuthRevision: 7\n", canned("auth", "status").text());
        assertEquals("\"ClusterID\" : 11\n\"MemberID\" : 22\n\"Revision\" : 33\n\"RaftTerm\" : 4\n"
                + "\"Enabled\" : true\n\"AuthRevision\" : 7\n", canned("auth", "status", "-w", "fields").text());
        assertEquals("{\"header\":{\"cluster_id\":11,\"member_id\":22,\"revision\":33,\"raft_term\":4},"
                + "\"enabled\":true,\"authRevision\":7}\n", canned("auth", "status", "-w", "json").text());
        assertEquals(ENABLED, AuthStatusResponse.parseFrom(canned("auth", "status", "-w", "protobuf").out()));
        Run table = canned("auth", "status", "-w", "table");
        assertEquals(4, table.code(), table.err());
        assertEquals("Error: table not supported as output format\n", table.err());
    }

    @Test
    void refusesArguments() {
        Run r = canned("auth", "status", "extra");
        assertEquals(128, r.code());
        assertEquals("Error: auth status command does not accept any arguments\n", r.err());
    }

    @Test
    void reportsThatEtcd34LacksTheRpc() {
        Run r = run(etcd.endpoint(), "auth", "status");
        assertEquals(1, r.code(), r.err());
        assertTrue(r.err().endsWith("Error: rpc error: code = Unimplemented desc = unknown method AuthStatus for service "
                + "etcdserverpb.Auth\n"), r.err());
    }
}
