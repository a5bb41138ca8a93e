package io.etcdj.server.api;

import io.etcdj.api.etcdserverpb.AuthDisableResponse;
import io.etcdj.api.etcdserverpb.AuthEnableResponse;
import io.etcdj.api.etcdserverpb.AuthRoleAddResponse;
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
import io.etcdj.api.etcdserverpb.AuthUserChangePasswordResponse;
import io.etcdj.api.etcdserverpb.AuthUserDeleteResponse;
import io.etcdj.api.etcdserverpb.AuthUserGetResponse;
import io.etcdj.api.etcdserverpb.AuthUserGrantRoleResponse;
import io.etcdj.api.etcdserverpb.AuthUserListResponse;
import io.etcdj.api.etcdserverpb.AuthUserRevokeRoleResponse;
import io.etcdj.api.etcdserverpb.AuthenticateResponse;
import io.etcdj.server.auth.AuthInfo;
import java.util.concurrent.CompletableFuture;

/**
 * What the Auth service and the access checks of the other services need of the member (owned
 * here, implemented by the server). Changes go through Raft and are checked when applied; reads
 * are answered after the ReadIndex barrier. Every change and read is made as its {@link Caller},
 * which the API layer resolves once per call ({@link Callers}).
 */
public interface AuthOperations {
    /** Who a token or certificate names (the token wins); {@link AuthInfo#NONE} for neither. */
    AuthInfo authInfo(String token, String commonName);

    /** Root only (once auth is enabled): fails with etcd's auth error otherwise. */
    void checkAdmin(AuthInfo caller);

    /** Whether the caller may read [key, rangeEnd) (watches are checked when created). */
    void checkRead(AuthInfo caller, byte[] key, byte[] rangeEnd);

    CompletableFuture<AuthEnableResponse> enable(Caller caller);

    CompletableFuture<AuthDisableResponse> disable(Caller caller);

    CompletableFuture<AuthStatusResponse> status(Caller caller);

    CompletableFuture<AuthenticateResponse> authenticate(String name, String password);

    CompletableFuture<AuthUserAddResponse> userAdd(Caller caller, AuthUserAddRequest r);

    CompletableFuture<AuthUserGetResponse> userGet(Caller caller, String name);

    CompletableFuture<AuthUserListResponse> userList(Caller caller);

    CompletableFuture<AuthUserDeleteResponse> userDelete(Caller caller, String name);

    CompletableFuture<AuthUserChangePasswordResponse> userChangePassword(Caller caller, String name, String password);

    CompletableFuture<AuthUserGrantRoleResponse> userGrantRole(Caller caller, String user, String role);

    CompletableFuture<AuthUserRevokeRoleResponse> userRevokeRole(Caller caller, String user, String role);

    CompletableFuture<AuthRoleAddResponse> roleAdd(Caller caller, String name);

    CompletableFuture<AuthRoleGetResponse> roleGet(Caller caller, String name);

    CompletableFuture<AuthRoleListResponse> roleList(Caller caller);

    CompletableFuture<AuthRoleDeleteResponse> roleDelete(Caller caller, String name);

    CompletableFuture<AuthRoleGrantPermissionResponse> roleGrantPermission(Caller caller, AuthRoleGrantPermissionRequest r);

    CompletableFuture<AuthRoleRevokePermissionResponse> roleRevokePermission(Caller caller, AuthRoleRevokePermissionRequest r);
}
