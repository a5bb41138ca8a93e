package io.etcdj.server.etcdserver;

import static io.etcdj.server.etcdserver.OpsFixture.answer;
import static io.etcdj.server.etcdserver.OpsFixture.clientSees;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.api.etcdserverpb.Member;
import io.etcdj.api.etcdserverpb.MemberAddRequest;
import io.etcdj.api.etcdserverpb.MemberAddResponse;
import io.etcdj.api.etcdserverpb.MemberListResponse;
import io.etcdj.api.etcdserverpb.MemberPromoteResponse;
import io.etcdj.server.apply.ApplyResult;
import io.etcdj.server.config.FlagParser;
import io.etcdj.server.config.ServerConfig;
import io.etcdj.server.metrics.Metrics;
import io.grpc.Status;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ClusterOps as etcdctl's member commands see it: validation with etcd's errors, conf changes, headers without a revision. */
class ClusterOpsTest {
    private static final Member M1 = Member.newBuilder().setID(1).setName("m1").addPeerURLs("http://127.0.0.1:2380")
            .addClientURLs("http://127.0.0.1:2379").build();

    @TempDir
    Path dir;
    private OpsFixture f;
    private ClusterOps cluster;
    /** The conf changes proposed: type and node. */
    private final List<String> changes = new ArrayList<>();
    private boolean learnerReady;

    @BeforeEach
    void open() throws Exception {
        f = new OpsFixture(dir);
        f.addMember(M1);
        ConfChangeProposer confChanges = (type, nodeId, member) -> {
            changes.add(type + " " + nodeId);
            f.addMember(member != null ? member : f.sm.membership.member(nodeId).toBuilder().setIsLearner(false).build());
            return CompletableFuture.completedFuture(ApplyResult.ok(null, 0));
        };
        ServerConfig config = ServerConfig.from(FlagParser.parse(new String[] {"--name", "m1"}, Map.of()).values());
        cluster = new ClusterOps(f.sm.membership, confChanges, id -> CompletableFuture.completedFuture(learnerReady),
                f.reads, f.headers, config, new Metrics());
    }

    @AfterEach
    void close() {
        f.close();
    }

    @Test
    void anAddedMemberTravelsAsAConfChangeAndIsAnsweredWithTheNewList() throws Exception {
        MemberAddResponse r = answer(cluster.add(MemberAddRequest.newBuilder().addPeerURLs("http://127.0.0.1:2390").build()));
        assertEquals(List.of("ConfChangeAddNode " + r.getMember().getID()), changes);
        assertEquals(List.of("http://127.0.0.1:2390"), r.getMember().getPeerURLsList());
        assertFalse(r.getMember().getIsLearner());
        assertEquals(2, r.getMembersCount());
        assertEquals(0, r.getHeader().getRevision(), "etcd's Cluster responses carry no revision");
        assertEquals(OpsFixture.CLUSTER, r.getHeader().getClusterId());
    }

    @Test
    void aPeerUrlInUseIsRefusedBeforeAnythingIsProposed() {
        Status s = clientSees(() -> cluster.add(MemberAddRequest.newBuilder().addPeerURLs("http://127.0.0.1:2380").build()));
        assertEquals(Status.Code.FAILED_PRECONDITION, s.getCode());
        assertEquals("etcdserver: Peer URLs already exists", s.getDescription());
        assertTrue(changes.isEmpty());
    }

    @Test
    void aLearnerIsPromotedOnlyOnceTheLeaderSaysItCaughtUp() throws Exception {
        MemberAddResponse added = answer(cluster.add(MemberAddRequest.newBuilder().addPeerURLs("http://127.0.0.1:2391")
                .setIsLearner(true).build()));
        long learner = added.getMember().getID();
        assertTrue(added.getMember().getIsLearner());
        Status s = clientSees(() -> cluster.promote(learner));
        assertEquals(Status.Code.FAILED_PRECONDITION, s.getCode());
        assertEquals("etcdserver: can only promote a learner member which is in sync with leader", s.getDescription());
        learnerReady = true;
        MemberPromoteResponse promoted = answer(cluster.promote(learner));
        assertEquals("ConfChangeAddNode " + learner, changes.get(changes.size() - 1));
        assertTrue(promoted.getMembersList().stream().noneMatch(Member::getIsLearner));
    }

    @Test
    void aLinearizableListWaitsForTheBarrierASerializableOneDoesNot() throws Exception {
        f.barrier = new CompletableFuture<>();
        assertEquals(List.of(M1), answer(cluster.list(false)).getMembersList());
        CompletableFuture<MemberListResponse> linearizable = cluster.list(true);
        assertFalse(linearizable.isDone());
        f.barrier.complete(null);
        assertEquals(1, answer(linearizable).getMembersCount());
    }
}
