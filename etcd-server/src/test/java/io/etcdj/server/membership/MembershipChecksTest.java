package io.etcdj.server.membership;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.etcdj.api.etcdserverpb.Member;
import io.etcdj.server.backend.Backend;
import io.etcdj.server.backend.WriteTx;
import io.etcdj.server.error.EtcdException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** etcd's rules for adding members: a one-member cluster may grow, learners up to --max-learners. */
class MembershipChecksTest {
    @TempDir
    Path dir;

    private static Member member(long id, String name, boolean learner) {
        return Member.newBuilder().setID(id).setName(name).addPeerURLs("http://127.0.0.1:" + (20000 + id))
                .setIsLearner(learner).build();
    }

    @Test
    void aVotingMemberMayJoinAOneMemberClusterButAHalfStartedOneNeedsItsQuorum() {
        Membership ms = new Membership();
        try (Backend b = Backend.open(dir.resolve("db"), 1 << 20); WriteTx tx = b.beginWrite()) {
            ms.add(tx, member(1, "m1", false));
            assertDoesNotThrow(() -> ms.checkAdd(List.of("http://127.0.0.1:29999"), false, true));
            ms.add(tx, member(2, "", false)); // added, never started
            EtcdException e = assertThrows(EtcdException.class,
                    () -> ms.checkAdd(List.of("http://127.0.0.1:29998"), false, true));
            assertEquals("etcdserver: re-configuration failed due to not enough started members", e.getMessage());
            tx.commit();
        }
    }

    @Test
    void learnersUpToMaxLearners() {
        Membership ms = new Membership();
        try (Backend b = Backend.open(dir.resolve("db"), 1 << 20); WriteTx tx = b.beginWrite()) {
            ms.add(tx, member(1, "m1", false));
            ms.add(tx, member(2, "l1", true));
            assertThrows(EtcdException.class, () -> ms.checkAdd(List.of("http://127.0.0.1:29999"), true, true, 1));
            assertDoesNotThrow(() -> ms.checkAdd(List.of("http://127.0.0.1:29999"), true, true, 2));
            tx.commit();
        }
    }
}
