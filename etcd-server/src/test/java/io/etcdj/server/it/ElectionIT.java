package io.etcdj.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.Election;
import io.etcd.jetcd.election.CampaignResponse;
import io.etcd.jetcd.election.LeaderResponse;
import io.etcd.jetcd.election.NotLeaderException;
import io.etcd.jetcd.options.GetOption;
import io.etcdj.harness.EtcdClusterExtension;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The v3election service against jetcd's Election client and the real etcdctl's {@code elect}. */
class ElectionIT {
    private static final long TIMEOUT_S = 15;

    @RegisterExtension
    static final EtcdClusterExtension CLUSTER = EtcdClusterExtension.of(InProcessEtcd.withFlags(Map.of()));

    private static ByteSequence bs(String s) {
        return ByteSequence.from(s, StandardCharsets.UTF_8);
    }

    private static String str(ByteSequence b) {
        return b.toString(StandardCharsets.UTF_8);
    }

    @Test
    void campaignProclaimObserveResignHandOver() throws Exception {
        try (Client client = Client.builder().target("dns:///" + CLUSTER.member(0).endpoint()).build()) {
            long leaseA = client.getLeaseClient().grant(60).get(TIMEOUT_S, TimeUnit.SECONDS).getID();
            long leaseB = client.getLeaseClient().grant(60).get(TIMEOUT_S, TimeUnit.SECONDS).getID();
            Election e = client.getElectionClient();
            CampaignResponse a = e.campaign(bs("jel"), leaseA, bs("a1")).get(TIMEOUT_S, TimeUnit.SECONDS);
            assertEquals("jel/" + Long.toHexString(leaseA), str(a.getLeader().getKey()));
            LinkedBlockingQueue<String> observed = new LinkedBlockingQueue<>();
            e.observe(bs("jel"), new Election.Listener() {
                @Override
                public void onNext(LeaderResponse r) {
                    observed.add(str(r.getKv().getValue()));
                }

                @Override
                public void onError(Throwable t) {
                    observed.add("error " + t);
                }

                @Override
                public void onCompleted() {
                }
            });
            assertEquals("a1", observed.poll(TIMEOUT_S, TimeUnit.SECONDS));
            CompletableFuture<CampaignResponse> b = e.campaign(bs("jel"), leaseB, bs("b1"));
            e.proclaim(a.getLeader(), bs("a2")).get(TIMEOUT_S, TimeUnit.SECONDS);
            assertEquals("a2", observed.poll(TIMEOUT_S, TimeUnit.SECONDS));
            assertEquals("a2", str(e.leader(bs("jel")).get(TIMEOUT_S, TimeUnit.SECONDS).getKv().getValue()));
            e.resign(a.getLeader()).get(TIMEOUT_S, TimeUnit.SECONDS);
            CampaignResponse won = b.get(TIMEOUT_S, TimeUnit.SECONDS);
            assertEquals("b1", observed.poll(TIMEOUT_S, TimeUnit.SECONDS));
            long at = won.getHeader().getRevision();
            assertEquals(0, client.getKVClient().get(a.getLeader().getKey(),
                    GetOption.builder().withRevision(at).build()).get(TIMEOUT_S, TimeUnit.SECONDS).getCount());
            // the old leader key no longer proclaims: jetcd recognises etcd's "election: not leader"
            Throwable notLeader = e.proclaim(a.getLeader(), bs("a3")).handle((v, err) -> err)
                    .get(TIMEOUT_S, TimeUnit.SECONDS);
            assertTrue(notLeader != null && notLeader.getCause() instanceof NotLeaderException,
                    String.valueOf(notLeader));
            e.resign(won.getLeader()).get(TIMEOUT_S, TimeUnit.SECONDS);
        }
    }

    @Test
    void realEtcdctlElectsAndObserves() throws Exception {
        Etcdctl ctl = new Etcdctl(CLUSTER.member(0).endpoint());
        try (Etcdctl.Background leader = ctl.background("elect", "ctlel", "p1");
             Etcdctl.Background observer = ctl.background("elect", "-l", "ctlel")) {
            List<String> won = leader.awaitLines(2, TIMEOUT_S * 1000);
            assertTrue(won.get(0).startsWith("ctlel/"), won.toString());
            assertEquals("p1", won.get(1));
            List<String> seen = observer.awaitLines(2, TIMEOUT_S * 1000);
            assertEquals(won, seen);
        }
    }
}
