package io.etcdj.server.etcdserver;

import static io.etcdj.server.etcdserver.OpsFixture.answer;
import static io.etcdj.server.etcdserver.OpsFixture.bs;
import static io.etcdj.server.etcdserver.OpsFixture.clientSees;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.api.etcdserverpb.AlarmMember;
import io.etcdj.api.etcdserverpb.AlarmRequest;
import io.etcdj.api.etcdserverpb.AlarmResponse;
import io.etcdj.api.etcdserverpb.AlarmType;
import io.etcdj.api.etcdserverpb.DowngradeRequest;
import io.etcdj.api.etcdserverpb.DowngradeRequest.DowngradeAction;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.api.etcdserverpb.ResponseHeader;
import io.etcdj.api.etcdserverpb.StatusResponse;
import io.etcdj.server.api.Caller;
import io.etcdj.server.error.EtcdError;
import io.etcdj.server.error.EtcdException;
import io.etcdj.server.log.Log;
import io.etcdj.server.metrics.Metrics;
import io.etcdj.server.version.Versions;
import io.etcdj.serverpb.InternalRaftRequest;
import io.grpc.Status;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** MaintenanceOps as etcdctl's alarm, move-leader, downgrade, hash and snapshot commands see it. */
class MaintenanceOpsTest {
    @TempDir
    Path dir;
    private OpsFixture f;
    private MaintenanceOps maintenance;
    /** What a leader transfer completes with. */
    private CompletableFuture<Void> transfer = CompletableFuture.completedFuture(null);

    @BeforeEach
    void open() {
        f = new OpsFixture(dir);
        MemberState member = new MemberState() {
            @Override
            public ResponseHeader header() {
                return f.headers.header();
            }

            @Override
            public ResponseHeader header(long revision) {
                return f.headers.header(revision);
            }

            @Override
            public StatusResponse status() {
                return StatusResponse.newBuilder().setHeader(header()).setVersion(Versions.SERVER).build();
            }

            @Override
            public String clusterVersion() {
                var d = f.sm.downgrade.info();
                return d.enabled() ? d.targetVersion() : Versions.CLUSTER;
            }
        };
        maintenance = new MaintenanceOps(f.proposer, f.reads, member, f.sm.alarms, f.sm.downgrade, f.sm.store,
                f.sm.backend, target -> transfer, dir, new Metrics(), Log.processSink());
    }

    @AfterEach
    void close() {
        f.close();
    }

    private static AlarmRequest activate(AlarmType type) {
        return AlarmRequest.newBuilder().setAction(AlarmRequest.AlarmAction.ACTIVATE).setMemberID(OpsFixture.MEMBER)
                .setAlarm(type).build();
    }

    @Test
    void anAlarmRaisedAsTheCallerIsListedByItsType() throws Exception {
        AlarmResponse raised = answer(maintenance.changeAlarm(f.as("root"), activate(AlarmType.NOSPACE)));
        assertEquals("root", f.lastProposed().getHeader().getUsername());
        AlarmMember nospace = AlarmMember.newBuilder().setMemberID(OpsFixture.MEMBER).setAlarm(AlarmType.NOSPACE).build();
        assertEquals(List.of(nospace), raised.getAlarmsList());
        AlarmRequest get = AlarmRequest.newBuilder().setAction(AlarmRequest.AlarmAction.GET).build();
        assertEquals(List.of(nospace), maintenance.alarms(get).getAlarmsList());
        assertEquals(List.of(), maintenance.alarms(get.toBuilder().setAlarm(AlarmType.CORRUPT).build()).getAlarmsList());
    }

    @Test
    void aDowngradeIsValidatedAsEtcdDoesAndAnsweredWithTheClusterVersionBeforeIt() throws Exception {
        Status format = clientSees(() -> maintenance.downgrade(Caller.ANONYMOUS, downgrade(DowngradeAction.VALIDATE, "3")));
        assertEquals(Status.Code.INVALID_ARGUMENT, format.getCode());
        assertEquals("etcdserver: wrong downgrade target version format", format.getDescription());
        Status target = clientSees(() -> maintenance.downgrade(Caller.ANONYMOUS, downgrade(DowngradeAction.VALIDATE, "3.4")));
        assertEquals("etcdserver: invalid downgrade target version", target.getDescription());

        assertEquals("3.6", answer(maintenance.downgrade(f.as("root"), downgrade(DowngradeAction.ENABLE, "3.5")))
                .getVersion());
        InternalRaftRequest enable = f.lastProposed();
        assertEquals("root", enable.getHeader().getUsername());
        assertEquals("3.5.0", enable.getDowngradeInfoSet().getVer());
        Status again = clientSees(() -> maintenance.downgrade(Caller.ANONYMOUS, downgrade(DowngradeAction.ENABLE, "3.5")));
        assertEquals(Status.Code.FAILED_PRECONDITION, again.getCode());
        assertEquals("etcdserver: cluster has a downgrade job in progress", again.getDescription());
        assertEquals("3.6", answer(maintenance.downgrade(Caller.ANONYMOUS, downgrade(DowngradeAction.CANCEL, "")))
                .getVersion());
    }

    private static DowngradeRequest downgrade(DowngradeRequest.DowngradeAction action, String version) {
        return DowngradeRequest.newBuilder().setAction(action).setVersion(version).build();
    }

    @Test
    void aLeaderTransferIsAnsweredOnceTheTransfereeLeadsOrWithEtcdsError() throws Exception {
        assertEquals(OpsFixture.MEMBER, answer(maintenance.moveLeader(2)).getHeader().getMemberId());
        transfer = CompletableFuture.failedFuture(EtcdError.NOT_LEADER.exception());
        Status s = clientSees(maintenance.moveLeader(2));
        assertEquals(Status.Code.FAILED_PRECONDITION, s.getCode());
        assertEquals("etcdserver: not leader", s.getDescription());
    }

    @Test
    void hashesFollowTheDataAndAFutureRevisionIsRefused() throws Exception {
        int before = maintenance.hashKv(0).getHash();
        assertEquals(before, maintenance.hashKv(0).getHash());
        f.proposer.propose(InternalRaftRequest.newBuilder().setPut(PutRequest.newBuilder().setKey(bs("k")).setValue(bs("v"))))
                .join();
        assertNotEquals(before, maintenance.hashKv(0).getHash());
        assertEquals(2, maintenance.hashKv(0).getHeader().getRevision());
        EtcdException future = assertThrows(EtcdException.class, () -> maintenance.hashKv(10));
        assertEquals(EtcdError.FUTURE_REV, future.error());
    }

    @Test
    void aSnapshotIsWrittenBesideTheBackend() throws Exception {
        Path snapshot = maintenance.writeSnapshot();
        try {
            assertEquals(dir.toAbsolutePath(), snapshot.getParent());
            assertTrue(Files.size(snapshot) > 0);
        } finally {
            Files.deleteIfExists(snapshot);
        }
    }
}
