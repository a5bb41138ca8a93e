package io.etcdj.server.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.etcdj.api.authpb.Permission;
import io.etcdj.api.authpb.User;
import io.etcdj.api.authpb.UserAddOptions;
import io.etcdj.api.etcdserverpb.AuthRoleGrantPermissionRequest;
import io.etcdj.api.etcdserverpb.AuthRoleRevokePermissionRequest;
import io.etcdj.api.etcdserverpb.AuthUserAddRequest;
import io.etcdj.server.backend.Backend;
import io.etcdj.server.backend.Bucket;
import io.etcdj.server.backend.Bytes;
import io.etcdj.server.backend.ReadTx;
import io.etcdj.server.backend.WriteTx;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AuthStoreTest {
    @TempDir
    Path dir;
    private Backend backend;
    private final AtomicLong clock = new AtomicLong();
    private AuthStore store;

    @BeforeEach
    void open() {
        backend = Backend.open(dir.resolve("db"), 64L << 20);
        store = new AuthStore(new SimpleTokens(clock::get, 300));
    }

    @AfterEach
    void close() {
        backend.close();
    }

    private void change(Consumer<WriteTx> c) {
        WriteTx tx = backend.beginWrite();
        try {
            c.accept(tx);
            tx.commit();
        } catch (RuntimeException e) {
            tx.commit();
            throw e;
        }
    }

    private AuthError refusal(Consumer<WriteTx> c) {
        return assertThrows(AuthException.class, () -> change(c)).error();
    }

    private void addUser(String name, String password) {
        change(tx -> store.userAdd(tx, AuthUserAddRequest.newBuilder().setName(name)
                .setHashedPassword(Passwords.hash(password, Passwords.MIN_COST)).build()));
    }

    private void enableWithRoot() {
        addUser("root", "rootpw");
        change(tx -> store.userGrantRole(tx, "root", "root"));
        change(store::enable);
    }

    @Test
    void enablingNeedsARootUserWithTheRootRole() {
        assertEquals(AuthError.ROOT_USER_NOT_EXIST, refusal(store::enable));
        addUser("root", "rootpw");
        assertEquals(AuthError.ROOT_ROLE_NOT_EXIST, refusal(store::enable));
        change(tx -> store.userGrantRole(tx, "root", "root"));
        change(store::enable);
        assertTrue(store.enabled());
        assertEquals(AuthError.INVALID_AUTH_MGMT, refusal(tx -> store.userDelete(tx, "root")));
        assertEquals(AuthError.INVALID_AUTH_MGMT, refusal(tx -> store.userRevokeRole(tx, "root", "root")));
    }

    @Test
    void everyChangeRaisesTheRevisionAndStaleRequestsAreRefused() {
        enableWithRoot();
        change(tx -> store.roleAdd(tx, "r"));
        change(tx -> store.roleGrantPermission(tx, AuthRoleGrantPermissionRequest.newBuilder().setName("r")
                .setPerm(Permission.newBuilder().setPermType(Permission.Type.READ).setKey(ByteString.copyFromUtf8("k")))
                .build()));
        addUser("u", "pw");
        change(tx -> store.userGrantRole(tx, "u", "r"));
        long rev = store.revision();
        AuthInfo u = new AuthInfo("u", rev);
        store.checkRead(u, "k".getBytes(StandardCharsets.UTF_8), null);
        assertEquals(AuthError.PERMISSION_DENIED, assertThrows(AuthException.class,
                () -> store.checkWrite(u, "k".getBytes(StandardCharsets.UTF_8), null)).error());
        change(tx -> store.roleAdd(tx, "other"));
        assertEquals(rev + 1, store.revision());
        assertEquals(AuthError.AUTH_OLD_REVISION, assertThrows(AuthException.class,
                () -> store.checkRead(u, "k".getBytes(StandardCharsets.UTF_8), null)).error());
        assertEquals(AuthError.USER_EMPTY, assertThrows(AuthException.class,
                () -> store.checkRead(AuthInfo.NONE, "k".getBytes(StandardCharsets.UTF_8), null)).error());
    }

    @Test
    void deletingARoleTakesItFromItsUsersAndRevokingRemovesEveryEqualGrant() {
        addUser("u", "pw");
        change(tx -> store.roleAdd(tx, "r"));
        change(tx -> store.userGrantRole(tx, "u", "r"));
        change(tx -> store.userGrantRole(tx, "u", "r"));
        assertEquals(List.of("r"), store.user("u").getRolesList(), "a repeated grant is ignored");
        AuthRoleGrantPermissionRequest grant = AuthRoleGrantPermissionRequest.newBuilder().setName("r")
                .setPerm(Permission.newBuilder().setPermType(Permission.Type.WRITE).setKey(ByteString.copyFromUtf8("a"))
                        .setRangeEnd(ByteString.copyFromUtf8("b"))).build();
        change(tx -> store.roleGrantPermission(tx, grant));
        change(tx -> store.roleGrantPermission(tx, grant.toBuilder().setPerm(grant.getPerm().toBuilder()
                .setPermType(Permission.Type.READWRITE)).build()));
        assertEquals(1, store.role("r").getKeyPermissionCount(), "the same key and range is updated");
        AuthRoleRevokePermissionRequest revoke = AuthRoleRevokePermissionRequest.newBuilder().setRole("r")
                .setKey(ByteString.copyFromUtf8("a")).setRangeEnd(ByteString.copyFromUtf8("b")).build();
        change(tx -> store.roleRevokePermission(tx, revoke));
        assertEquals(AuthError.PERMISSION_NOT_GRANTED, refusal(tx -> store.roleRevokePermission(tx, revoke)));
        change(tx -> store.roleDelete(tx, "r"));
        assertEquals(List.of(), store.user("u").getRolesList());
        assertEquals(AuthError.ROLE_NOT_FOUND, refusal(tx -> store.userGrantRole(tx, "u", "r")));
    }

    @Test
    void theBackendHoldsEtcdsLayoutAndARestoredStoreIsTheSame() throws Exception {
        enableWithRoot();
        change(tx -> store.userAdd(tx, AuthUserAddRequest.newBuilder().setName("cert")
                .setOptions(UserAddOptions.newBuilder().setNoPassword(true)).build()));
        try (ReadTx tx = backend.beginRead()) {
            assertEquals(1, tx.get(Bucket.AUTH, "authEnabled".getBytes(StandardCharsets.US_ASCII))[0]);
            assertEquals(store.revision(), Bytes.toLong(tx.get(Bucket.AUTH, "authRevision".getBytes(StandardCharsets.US_ASCII))));
            byte[] root = tx.get(Bucket.AUTH_USERS, "root".getBytes(StandardCharsets.UTF_8));
            User u = User.parseFrom(root);
            assertTrue(u.getPassword().toStringUtf8().startsWith("$2a$"), "bcrypt as Go writes it");
            assertNotNull(tx.get(Bucket.AUTH_USERS, "cert".getBytes(StandardCharsets.UTF_8)));
            AuthStore restored = new AuthStore(new SimpleTokens(clock::get, 300));
            restored.restore(tx);
            assertTrue(restored.enabled());
            assertEquals(store.revision(), restored.revision());
            assertEquals(List.of("cert", "root"), restored.userNames());
            assertEquals(List.of("root"), restored.user("root").getRolesList());
        }
    }

    @Test
    void loginChecksThePasswordAndIssuesATokenEveryMemberKnows() {
        assertEquals(AuthError.AUTH_NOT_ENABLED, assertThrows(AuthException.class,
                () -> store.checkPassword("root", "rootpw")).error());
        enableWithRoot();
        change(tx -> store.userAdd(tx, AuthUserAddRequest.newBuilder().setName("cert")
                .setOptions(UserAddOptions.newBuilder().setNoPassword(true)).build()));
        store.checkPassword("root", "rootpw");
        assertEquals(AuthError.AUTH_FAILED, assertThrows(AuthException.class,
                () -> store.checkPassword("root", "wrong")).error());
        assertEquals(AuthError.AUTH_FAILED, assertThrows(AuthException.class,
                () -> store.checkPassword("nobody", "x")).error());
        assertEquals(AuthError.NO_PASSWORD_USER, assertThrows(AuthException.class,
                () -> store.checkPassword("cert", "")).error());
        String token = store.authenticate("root", "abcdefghijklmnop", 42);
        assertEquals("abcdefghijklmnop.42", token);
        assertEquals(new AuthInfo("root", store.revision()), store.infoFromToken(token));
        change(tx -> store.userChangePassword(tx, "root", Passwords.hash("new", Passwords.MIN_COST)));
        assertEquals(AuthError.INVALID_AUTH_TOKEN, assertThrows(AuthException.class,
                () -> store.infoFromToken(token)).error(), "a password change ends the user's tokens");
        assertFalse(store.hasRole("nobody", "root"));
    }
}
