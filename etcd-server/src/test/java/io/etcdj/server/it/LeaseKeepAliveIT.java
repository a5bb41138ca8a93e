package io.etcdj.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.api.etcdserverpb.LeaseGrantRequest;
import io.etcdj.api.etcdserverpb.LeaseKeepAliveRequest;
import io.etcdj.api.etcdserverpb.LeaseKeepAliveResponse;
import io.etcdj.api.etcdserverpb.StatusRequest;
import io.etcdj.harness.Command;
import io.etcdj.harness.EtcdMember;
import io.etcdj.harness.EtcdProcess;
import io.etcdj.harness.ProcessCluster;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A keep-alive stream whose client sends its requests and half-closes at once (what a one-shot
 * keep-alive does) gets every answer before the stream ends, on the leader and on followers,
 * whose renewals travel to the leader and back; so do etcd 3.4's etcdctl and curl through the
 * HTTP gateway (issue 12's "Done when": a real client's keep-alive through the gateway on the
 * leader and a follower).
 */
class LeaseKeepAliveIT {

    @Test
    void halfClosedKeepAliveStreamsAreAnsweredOnEveryMember() throws Exception {
        try (ProcessCluster c = ProcessCluster.start(EtcdProcess.Binary.OURS, 3)) {
            List<GrpcEndpoint> eps = new ArrayList<>();
            try {
                for (EtcdProcess m : c.members()) {
                    eps.add(new GrpcEndpoint(m));
                }
                long id = eps.get(0).lease().leaseGrant(LeaseGrantRequest.newBuilder().setTTL(60).build()).getID();
                int followers = 0;
                for (GrpcEndpoint ep : eps) {
                    var st = ep.maintenance().status(StatusRequest.getDefaultInstance());
                    if (st.getLeader() != st.getHeader().getMemberId()) {
                        followers++;
                    }
                    List<LeaseKeepAliveResponse> answers = keepAliveThenHalfClose(ep, id, 2);
                    assertEquals(2, answers.size(), "answers on " + ep.member().describe());
                    for (LeaseKeepAliveResponse a : answers) {
                        assertEquals(id, a.getID());
                        assertTrue(a.getTTL() > 0 && a.getTTL() <= 60, "TTL " + a.getTTL());
                    }
                    List<LeaseKeepAliveResponse> unknown = keepAliveThenHalfClose(ep, id + 1, 1);
                    assertEquals(0, unknown.get(0).getTTL(), "an unknown lease answers TTL 0");
                    realClientsKeepAlive(ep.member(), id);
                }
                assertEquals(2, followers, "the scenario covers both followers");
            } finally {
                for (GrpcEndpoint ep : eps) {
                    ep.close();
                }
            }
        }
    }

    /**
     * Clients nobody here wrote: etcd 3.4's etcdctl (gRPC) and curl through the HTTP gateway,
     * whose response must end after the answer (curl's exit 28 would mean it never did).
     */
    private static void realClientsKeepAlive(EtcdMember m, long id) throws Exception {
        String hex = Long.toHexString(id);
        // etcdctl prints lease IDs with %016x: a small member prefix shows as leading zeros
        assertEquals("lease " + String.format("%016x", id) + " keepalived with TTL(60)\n",
                new Etcdctl(m.endpoint()).run("lease", "keep-alive", "--once", hex).ok().stdout(), m.describe());
        Command.Result curl = Command.of("curl", "-sS", "--max-time", "10", "-X", "POST", "http://" + m.endpoint()
                + "/v3/lease/keepalive", "-d", "{\"ID\":\"" + id + "\"}").mergeStderr().run();
        String out = curl.stdout();
        assertEquals(0, curl.exitCode(), "curl on " + m.describe() + ": " + out);
        assertTrue(out.matches("\\{\"result\":\\{\"header\":\\{.*\\},\"ID\":\"" + id + "\",\"TTL\":\"60\"\\}\\}\\s*"),
                "gateway answer on " + m.describe() + ": " + out);
    }

    /** Sends {@code n} keep-alives for {@code id}, half-closes, and collects the answers until the stream ends. */
    private static List<LeaseKeepAliveResponse> keepAliveThenHalfClose(GrpcEndpoint ep, long id, int n) throws Exception {
        LinkedBlockingQueue<LeaseKeepAliveResponse> got = new LinkedBlockingQueue<>();
        CompletableFuture<Void> ended = new CompletableFuture<>();
        StreamObserver<LeaseKeepAliveRequest> req = ep.leaseAsync().withDeadlineAfter(15, TimeUnit.SECONDS)
                .leaseKeepAlive(new StreamObserver<>() {
                    @Override
                    public void onNext(LeaseKeepAliveResponse r) {
                        got.add(r);
                    }

                    @Override
                    public void onError(Throwable t) {
                        ended.completeExceptionally(t);
                    }

                    @Override
                    public void onCompleted() {
                        ended.complete(null);
                    }
                });
        for (int i = 0; i < n; i++) {
            req.onNext(LeaseKeepAliveRequest.newBuilder().setID(id).build());
        }
        req.onCompleted();
        ended.get(20, TimeUnit.SECONDS); // the server ended the stream, after its answers
        return new ArrayList<>(got);
    }
}
