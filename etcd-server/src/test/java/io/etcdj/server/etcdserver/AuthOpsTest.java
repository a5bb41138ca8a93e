package io.etcdj.server.etcdserver;

import static io.etcdj.server.etcdserver.OpsFixture.answer;
import static io.etcdj.server.etcdserver.OpsFixture.clientSees;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.api.etcdserverpb.AuthUserAddRequest;
import io.etcdj.server.api.Caller;
import io.etcdj.server.auth.Passwords;
import io.grpc.Status;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** AuthOps as etcdctl's user, role and auth commands see it: who may do what, and what travels through Raft. */
class AuthOpsTest {
    @TempDir
    Path dir;
    private OpsFixture f;
    private AuthOps auth;

    @BeforeEach
    void open() {
        f = new OpsFixture(dir);
        auth = new AuthOps(f.proposer, f.reads, f.headers, f.sm.auth, Passwords.MIN_COST);
    }

    @AfterEach
    void close() {
        f.close();
    }

    @Test
    void aPasswordIsHashedBeforeItIsProposedAndTheChangeIsMadeAsTheCaller() throws Exception {
        answer(auth.userAdd(f.as("root"), AuthUserAddRequest.newBuilder().setName("erin").setPassword("secret").build()));
        var proposed = f.lastProposed();
        assertEquals("root", proposed.getHeader().getUsername());
        assertEquals("", proposed.getUserAdd().getPassword(), "the clear password never enters the Raft log");
        assertTrue(Passwords.matches(proposed.getUserAdd().getHashedPassword().getBytes(StandardCharsets.UTF_8), "secret"));
        assertEquals(List.of("erin"), answer(auth.userList(Caller.ANONYMOUS)).getUsersList());
    }

    @Test
    void onceAuthIsOnAUserReadsHerselfButNotOthersAndNotTheUserList() throws Exception {
        Caller alice = f.enableAuthWithAlice();
        assertEquals(List.of("reader"), answer(auth.userGet(alice, "alice")).getRolesList());
        assertEquals(1, answer(auth.roleGet(alice, "reader")).getPermCount(), "her own role");
        for (Status s : List.of(clientSees(auth.userGet(alice, "root")), clientSees(auth.userList(alice)),
                clientSees(auth.status(alice)))) {
            assertEquals(Status.Code.PERMISSION_DENIED, s.getCode());
            assertEquals("etcdserver: permission denied", s.getDescription());
        }
        assertTrue(answer(auth.status(f.as("root"))).getEnabled());
    }

    @Test
    void aChangeMadeAsANonRootUserIsRefusedWhenAppliedAndMadeAsRoot() throws Exception {
        Caller alice = f.enableAuthWithAlice();
        Status s = clientSees(auth.roleAdd(alice, "writer"));
        assertEquals(Status.Code.PERMISSION_DENIED, s.getCode());
        assertEquals("etcdserver: permission denied", s.getDescription());
        Status anonymous = clientSees(auth.roleAdd(Caller.ANONYMOUS, "writer"));
        assertEquals("etcdserver: user name is empty", anonymous.getDescription());
        answer(auth.roleAdd(f.as("root"), "writer"));
        assertTrue(answer(auth.roleList(f.as("root"))).getRolesList().contains("writer"));
    }

    @Test
    void aLoginWithAWrongPasswordFailsAsEtcdsDoes() throws Exception {
        f.enableAuthWithAlice();
        Status s = clientSees(() -> auth.authenticate("alice", "wrong"));
        assertEquals(Status.Code.INVALID_ARGUMENT, s.getCode());
        assertEquals("etcdserver: authentication failed, invalid user ID or password", s.getDescription());
        assertFalse(answer(auth.authenticate("alice", "alicepw")).getToken().isEmpty());
    }
}
