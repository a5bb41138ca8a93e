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
 * are answered after the ReadIndex barrier. Every method acts as the current caller
 * ({@link Callers#current()}).
 */
public interface AuthOperations {
    /** Who a token or certificate names (the token wins); {@link AuthInfo#NONE} for neither. */
    AuthInfo authInfo(String token, String commonName);

    /** Root only (once auth is enabled): fails with etcd's auth error otherwise. */
    void checkAdmin(AuthInfo caller);

    /** Whether the caller may read [key, rangeEnd) (watches are checked when created). */
    void checkRead(AuthInfo caller, byte[] key, byte[] rangeEnd);

    CompletableFuture<AuthEnableResponse> enable();

    CompletableFuture<AuthDisableResponse> disable();

    CompletableFuture<AuthStatusResponse> status();

    CompletableFuture<AuthenticateResponse> authenticate(String name, String password);

    CompletableFuture<AuthUserAddResponse> userAdd(AuthUserAddRequest r);

    CompletableFuture<AuthUserGetResponse> userGet(String name);

    CompletableFuture<AuthUserListResponse> userList();

    CompletableFuture<AuthUserDeleteResponse> userDelete(String name);

    CompletableFuture<AuthUserChangePasswordResponse> userChangePassword(String name, String password);

    CompletableFuture<AuthUserGrantRoleResponse> userGrantRole(String user, String role);

    CompletableFuture<AuthUserRevokeRoleResponse> userRevokeRole(String user, String role);

    CompletableFuture<AuthRoleAddResponse> roleAdd(String name);

    CompletableFuture<AuthRoleGetResponse> roleGet(String name);

    CompletableFuture<AuthRoleListResponse> roleList();

    CompletableFuture<AuthRoleDeleteResponse> roleDelete(String name);

    CompletableFuture<AuthRoleGrantPermissionResponse> roleGrantPermission(AuthRoleGrantPermissionRequest r);

    CompletableFuture<AuthRoleRevokePermissionResponse> roleRevokePermission(AuthRoleRevokePermissionRequest r);
}
