package io.etcdj.server.etcdserver;

import com.google.protobuf.Message;
import io.etcdj.api.etcdserverpb.AuthDisableRequest;
import io.etcdj.api.etcdserverpb.AuthDisableResponse;
import io.etcdj.api.etcdserverpb.AuthEnableRequest;
import io.etcdj.api.etcdserverpb.AuthEnableResponse;
import io.etcdj.api.etcdserverpb.AuthRoleAddRequest;
import io.etcdj.api.etcdserverpb.AuthRoleAddResponse;
import io.etcdj.api.etcdserverpb.AuthRoleDeleteRequest;
import io.etcdj.api.etcdserverpb.AuthRoleDeleteResponse;
import io.etcdj.api.etcdserverpb.AuthRoleGetResponse;
import io.etcdj.api.etcdserverpb.AuthRoleGrantPermissionRequest;
import io.etcdj.api.etcdserverpb.AuthRoleGrantPermissionResponse;
import io.etcdj.api.etcdserverpb.AuthRoleListResponse;
import io.etcdj.api.etcdserverpb.AuthRoleRevokePermissionRequest;
import io.etcdj.api.etcdserverpb.AuthRoleRevokePermissionResponse;
import io.etcdj.api.etcdserverpb.AuthStatusResponse;
import io.etcdj.api.etcdserverpb.AuthUserAddRequest;
import io.etcdj.api.etcdserverpb.AuthUserAddResponse;
import io.etcdj.api.etcdserverpb.AuthUserChangePasswordRequest;
import io.etcdj.api.etcdserverpb.AuthUserChangePasswordResponse;
import io.etcdj.api.etcdserverpb.AuthUserDeleteRequest;
import io.etcdj.api.etcdserverpb.AuthUserDeleteResponse;
import io.etcdj.api.etcdserverpb.AuthUserGetResponse;
import io.etcdj.api.etcdserverpb.AuthUserGrantRoleRequest;
import io.etcdj.api.etcdserverpb.AuthUserGrantRoleResponse;
import io.etcdj.api.etcdserverpb.AuthUserListResponse;
import io.etcdj.api.etcdserverpb.AuthUserRevokeRoleRequest;
import io.etcdj.api.etcdserverpb.AuthUserRevokeRoleResponse;
import io.etcdj.api.etcdserverpb.AuthenticateResponse;
import io.etcdj.api.etcdserverpb.ResponseHeader;
import io.etcdj.server.api.AuthOperations;
import io.etcdj.server.api.Caller;
import io.etcdj.server.auth.AuthException;
import io.etcdj.server.auth.AuthInfo;
import io.etcdj.server.auth.AuthStore;
import io.etcdj.server.auth.Passwords;
import io.etcdj.server.auth.SimpleTokens;
import io.etcdj.serverpb.InternalAuthenticateRequest;
import io.etcdj.serverpb.InternalRaftRequest;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * The auth operations: changes and logins proposed through Raft (with the caller in the header,
 * checked by the auth stage when applied), reads from the local store after the ReadIndex barrier.
 * Passwords are hashed here, on the member that takes the request, so Raft entries never carry
 * them in clear and every member stores the same hash.
 */
final class AuthOps implements AuthOperations {
    private final Proposer proposer;
    private final Reads reads;
    private final Headers headers;
    private final AuthStore store;
    /** --bcrypt-cost: passwords are hashed here, before they are proposed. */
    private final int bcryptCost;

    AuthOps(Proposer proposer, Reads reads, Headers headers, AuthStore store, int bcryptCost) {
        this.proposer = proposer;
        this.reads = reads;
        this.headers = headers;
        this.store = store;
        this.bcryptCost = bcryptCost;
    }

    @Override
    public AuthInfo authInfo(String token, String commonName) {
        if (token != null) {
            return store.infoFromToken(token);
        }
        if (commonName != null && !commonName.isEmpty()) {
            return store.infoFromCommonName(commonName);
        }
        return AuthInfo.NONE;
    }

    @Override
    public void checkAdmin(AuthInfo caller) {
        store.checkAdmin(caller);
    }

    @Override
    public void checkRead(AuthInfo caller, byte[] key, byte[] rangeEnd) {
        store.checkRead(caller, key, rangeEnd);
    }

    /** Proposes as {@code caller}; the response gets its header from the applied revision. */
    private <T extends Message> CompletableFuture<T> propose(Caller caller, InternalRaftRequest.Builder r,
                                                             BiFunction<Message, ResponseHeader, T> withHeader) {
        return proposer.propose(caller, r).thenApply(res -> withHeader.apply(res.response(), headers.header(res.revision())));
    }

    /** Answers a read after the barrier, acting as {@code caller}. */
    private <T> CompletableFuture<T> read(Caller caller, Function<AuthInfo, T> body) {
        return reads.barrier().thenApply(x -> body.apply(caller.auth()));
    }

    @Override
    public CompletableFuture<AuthEnableResponse> enable(Caller caller) {
        return propose(caller, InternalRaftRequest.newBuilder().setAuthEnable(AuthEnableRequest.getDefaultInstance()),
                (m, h) -> ((AuthEnableResponse) m).toBuilder().setHeader(h).build());
    }

    @Override
    public CompletableFuture<AuthDisableResponse> disable(Caller caller) {
        return propose(caller, InternalRaftRequest.newBuilder().setAuthDisable(AuthDisableRequest.getDefaultInstance()),
                (m, h) -> ((AuthDisableResponse) m).toBuilder().setHeader(h).build());
    }

    @Override
    public CompletableFuture<AuthStatusResponse> status(Caller caller) {
        return read(caller, user -> {
            store.checkAdmin(user);
            return AuthStatusResponse.newBuilder().setHeader(headers.header()).setEnabled(store.enabled())
                    .setAuthRevision(store.revision()).build();
        });
    }

    @Override
    public CompletableFuture<AuthenticateResponse> authenticate(String name, String password) {
        store.checkPassword(name, password);
        InternalAuthenticateRequest login = InternalAuthenticateRequest.newBuilder().setName(name)
                .setSimpleToken(SimpleTokens.newPrefix()).build();
        // a login needs no identity of its own: it carries none, and the auth stage lets it pass
        return proposer.propose(InternalRaftRequest.newBuilder().setAuthenticate(login)).thenApply(res ->
                ((AuthenticateResponse) res.response()).toBuilder().setHeader(headers.header(res.revision())).build());
    }

    @Override
    public CompletableFuture<AuthUserAddResponse> userAdd(Caller caller, AuthUserAddRequest r) {
        AuthUserAddRequest.Builder b = r.toBuilder().clearPassword();
        if (!(r.hasOptions() && r.getOptions().getNoPassword())) {
            b.setHashedPassword(Passwords.hash(r.getPassword(), bcryptCost));
        }
        return propose(caller, InternalRaftRequest.newBuilder().setUserAdd(b),
                (m, h) -> ((AuthUserAddResponse) m).toBuilder().setHeader(h).build());
    }

    @Override
    public CompletableFuture<AuthUserGetResponse> userGet(Caller caller, String name) {
        return read(caller, user -> {
            checkAdminUnless(user, user.username().equals(name));
            return AuthUserGetResponse.newBuilder().setHeader(headers.header())
                    .addAllRoles(store.user(name).getRolesList()).build();
        });
    }

    @Override
    public CompletableFuture<AuthUserListResponse> userList(Caller caller) {
        return read(caller, user -> {
            store.checkAdmin(user);
            return AuthUserListResponse.newBuilder().setHeader(headers.header()).addAllUsers(store.userNames()).build();
        });
    }

    @Override
    public CompletableFuture<AuthUserDeleteResponse> userDelete(Caller caller, String name) {
        return propose(caller, InternalRaftRequest.newBuilder().setUserDelete(AuthUserDeleteRequest.newBuilder().setName(name)),
                (m, h) -> ((AuthUserDeleteResponse) m).toBuilder().setHeader(h).build());
    }

    @Override
    public CompletableFuture<AuthUserChangePasswordResponse> userChangePassword(Caller caller, String name, String password) {
        AuthUserChangePasswordRequest r = AuthUserChangePasswordRequest.newBuilder().setName(name)
                .setHashedPassword(Passwords.hash(password, bcryptCost)).build();
        return propose(caller, InternalRaftRequest.newBuilder().setUserChangePassword(r),
                (m, h) -> ((AuthUserChangePasswordResponse) m).toBuilder().setHeader(h).build());
    }

    @Override
    public CompletableFuture<AuthUserGrantRoleResponse> userGrantRole(Caller caller, String user, String role) {
        return propose(caller, InternalRaftRequest.newBuilder().setUserGrantRole(
                        AuthUserGrantRoleRequest.newBuilder().setUser(user).setRole(role)),
                (m, h) -> ((AuthUserGrantRoleResponse) m).toBuilder().setHeader(h).build());
    }

    @Override
    public CompletableFuture<AuthUserRevokeRoleResponse> userRevokeRole(Caller caller, String user, String role) {
        return propose(caller, InternalRaftRequest.newBuilder().setUserRevokeRole(
                        AuthUserRevokeRoleRequest.newBuilder().setName(user).setRole(role)),
                (m, h) -> ((AuthUserRevokeRoleResponse) m).toBuilder().setHeader(h).build());
    }

    @Override
    public CompletableFuture<AuthRoleAddResponse> roleAdd(Caller caller, String name) {
        return propose(caller, InternalRaftRequest.newBuilder().setRoleAdd(AuthRoleAddRequest.newBuilder().setName(name)),
                (m, h) -> ((AuthRoleAddResponse) m).toBuilder().setHeader(h).build());
    }

    @Override
    public CompletableFuture<AuthRoleGetResponse> roleGet(Caller caller, String name) {
        return read(caller, user -> {
            checkAdminUnless(user, store.hasRole(user.username(), name));
            return AuthRoleGetResponse.newBuilder().setHeader(headers.header())
                    .addAllPerm(store.role(name).getKeyPermissionList()).build();
        });
    }

    @Override
    public CompletableFuture<AuthRoleListResponse> roleList(Caller caller) {
        return read(caller, user -> {
            store.checkAdmin(user);
            return AuthRoleListResponse.newBuilder().setHeader(headers.header()).addAllRoles(store.roleNames()).build();
        });
    }

    @Override
    public CompletableFuture<AuthRoleDeleteResponse> roleDelete(Caller caller, String name) {
        return propose(caller, InternalRaftRequest.newBuilder().setRoleDelete(AuthRoleDeleteRequest.newBuilder().setRole(name)),
                (m, h) -> ((AuthRoleDeleteResponse) m).toBuilder().setHeader(h).build());
    }

    @Override
    public CompletableFuture<AuthRoleGrantPermissionResponse> roleGrantPermission(Caller caller,
                                                                                  AuthRoleGrantPermissionRequest r) {
        return propose(caller, InternalRaftRequest.newBuilder().setRoleGrantPermission(r),
                (m, h) -> ((AuthRoleGrantPermissionResponse) m).toBuilder().setHeader(h).build());
    }

    @Override
    public CompletableFuture<AuthRoleRevokePermissionResponse> roleRevokePermission(Caller caller,
                                                                                    AuthRoleRevokePermissionRequest r) {
        return propose(caller, InternalRaftRequest.newBuilder().setRoleRevokePermission(r),
                (m, h) -> ((AuthRoleRevokePermissionResponse) m).toBuilder().setHeader(h).build());
    }

    /** etcd lets users read themselves and their own roles; anything else needs root. */
    private void checkAdminUnless(AuthInfo caller, boolean own) {
        try {
            store.checkAdmin(caller);
        } catch (AuthException e) {
            if (!own) {
                throw e;
            }
        }
    }
}
