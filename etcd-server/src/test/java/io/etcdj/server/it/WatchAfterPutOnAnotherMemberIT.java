package io.etcdj.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.DeleteRangeRequest;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.api.etcdserverpb.WatchCreateRequest;
import io.etcdj.api.etcdserverpb.WatchRequest;
import io.etcdj.api.etcdserverpb.WatchResponse;
import io.etcdj.api.mvccpb.Event;
import io.etcdj.harness.EtcdProcess;
import io.etcdj.harness.ProcessCluster;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * jetcd's WatchTest.testWatchOnDelete against a three-member cluster, as reported failing on ours
 * ("expected: DELETE but was: PUT"): its client balances calls over the members, so the put, the
 * watch (no start revision) and the delete may each reach another member. A watch with no start
 * revision starts after the revision its member has applied when it is created, so a member that
 * has not applied the put yet delivers the put first. The real etcd 3.4 does the same, and more
 * often than ours (two runs: 11 and 19 of 150 rounds on etcd, 1 and 9 on ours): the test is racy against any
 * multi-member cluster. What both must hold to: the first event is the put exactly when the
 * watch's creation revision is below the put's revision.
 */
class WatchAfterPutOnAnotherMemberIT {
    private static final int ROUNDS = 150;

    /** Rounds whose watch saw the put first; fails if a watch's first event contradicts its creation revision. */
    private static int putsSeen(EtcdProcess.Binary binary) throws Exception {
        try (ProcessCluster c = ProcessCluster.start(binary, 3)) {
            List<GrpcEndpoint> members = new ArrayList<>();
            for (EtcdProcess m : c.members()) {
                members.add(new GrpcEndpoint(m));
            }
            int seen = 0;
            try {
                for (int i = 0; i < ROUNDS; i++) {
                    ByteString key = ByteString.copyFromUtf8("watch-after-put/" + i);
                    long put = members.get(i % 3).kv().put(PutRequest.newBuilder().setKey(key)
                            .setValue(ByteString.copyFromUtf8("v")).build()).getHeader().getRevision();
                    try (WatchSession watch = new WatchSession(members.get((i + 1) % 3))) {
                        watch.send(WatchRequest.newBuilder().setCreateRequest(WatchCreateRequest.newBuilder().setKey(key)).build());
                        long createdAt = watch.take(1, 15_000).get(0).getHeader().getRevision();
                        members.get((i + 2) % 3).kv().deleteRange(DeleteRangeRequest.newBuilder().setKey(key).build());
                        WatchResponse first = watch.takeEvents(1, 15_000).get(0);
                        boolean sawPut = first.getEvents(0).getType() == Event.EventType.PUT;
                        assertEquals(createdAt < put, sawPut, binary + " round " + i + ": watch created at revision "
                                + createdAt + ", put at " + put + ", first event " + first.getEvents(0).getType());
                        if (sawPut) {
                            seen++;
                        }
                    }
                }
            } finally {
                for (GrpcEndpoint e : members) {
                    e.close();
                }
            }
            return seen;
        }
    }

    @Test
    void aWatchWithoutStartRevisionStartsAfterWhatItsMemberHasApplied() throws Exception {
        int real = putsSeen(EtcdProcess.Binary.REAL_ETCD);
        int ours = putsSeen(EtcdProcess.Binary.OURS);
        System.out.println("watch saw the put first: etcd 3.4 " + real + ", ours " + ours + " of " + ROUNDS);
    }
}
