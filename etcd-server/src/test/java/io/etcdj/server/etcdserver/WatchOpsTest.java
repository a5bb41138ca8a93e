package io.etcdj.server.etcdserver;

import static io.etcdj.server.etcdserver.OpsFixture.bs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.server.watch.ProgressNotifier;
import io.etcdj.server.watch.WatchHub;
import io.etcdj.serverpb.InternalRaftRequest;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** WatchOps as a watch stream sees it: the member's watchable store, and the headers its responses carry. */
class WatchOpsTest {
    @TempDir
    Path dir;
    private OpsFixture f;
    private WatchHub hub;
    private ProgressNotifier progress;
    private WatchOps watches;

    @BeforeEach
    void open() {
        f = new OpsFixture(dir);
        hub = new WatchHub(f.sm.store);
        progress = new ProgressNotifier(1000);
        watches = new WatchOps(hub, progress, f.headers, 1536);
    }

    @AfterEach
    void close() {
        progress.close();
        hub.close();
        f.close();
    }

    @Test
    void aCreatedResponseCarriesTheCurrentRevisionAndACancelNone() {
        f.proposer.propose(InternalRaftRequest.newBuilder().setPut(PutRequest.newBuilder().setKey(bs("k")).setValue(bs("v"))))
                .join();
        assertEquals(2, watches.header().getRevision());
        assertEquals(OpsFixture.MEMBER, watches.header().getMemberId());
        assertEquals(0, watches.header(0).getRevision(), "etcd's cancel responses carry no revision");
        assertEquals(OpsFixture.TERM, watches.header(0).getRaftTerm());
    }

    @Test
    void streamsWatchTheMembersStoreAndFragmentAtItsRequestLimit() {
        assertSame(hub, watches.hub());
        assertSame(progress, watches.progress());
        assertEquals(1536, watches.maxRequestBytes());
    }
}
