package io.etcdj.server.api;

import io.etcdj.api.etcdserverpb.AuthDisableRequest;
import io.etcdj.api.etcdserverpb.AuthDisableResponse;
import io.etcdj.api.etcdserverpb.AuthEnableRequest;
import io.etcdj.api.etcdserverpb.AuthEnableResponse;
import io.etcdj.api.etcdserverpb.AuthGrpc;
import io.etcdj.api.etcdserverpb.AuthRoleAddRequest;
import io.etcdj.api.etcdserverpb.AuthRoleAddResponse;
import io.etcdj.api.etcdserverpb.AuthRoleDeleteRequest;
import io.etcdj.api.etcdserverpb.AuthRoleDeleteResponse;
import io.etcdj.api.etcdserverpb.AuthRoleGetRequest;
import io.etcdj.api.etcdserverpb.AuthRoleGetResponse;
import io.etcdj.api.etcdserverpb.AuthRoleGrantPermissionRequest;
import io.etcdj.api.etcdserverpb.AuthRoleGrantPermissionResponse;
import io.etcdj.api.etcdserverpb.AuthRoleListRequest;
import io.etcdj.api.etcdserverpb.AuthRoleListResponse;
import io.etcdj.api.etcdserverpb.AuthRoleRevokePermissionRequest;
import io.etcdj.api.etcdserverpb.AuthRoleRevokePermissionResponse;
import io.etcdj.api.etcdserverpb.AuthStatusRequest;
import io.etcdj.api.etcdserverpb.AuthStatusResponse;
import io.etcdj.api.etcdserverpb.AuthUserAddRequest;
import io.etcdj.api.etcdserverpb.AuthUserAddResponse;
import io.etcdj.api.etcdserverpb.AuthUserChangePasswordRequest;
import io.etcdj.api.etcdserverpb.AuthUserChangePasswordResponse;
import io.etcdj.api.etcdserverpb.AuthUserDeleteRequest;
import io.etcdj.api.etcdserverpb.AuthUserDeleteResponse;
import io.etcdj.api.etcdserverpb.AuthUserGetRequest;
import io.etcdj.api.etcdserverpb.AuthUserGetResponse;
import io.etcdj.api.etcdserverpb.AuthUserGrantRoleRequest;
import io.etcdj.api.etcdserverpb.AuthUserGrantRoleResponse;
import io.etcdj.api.etcdserverpb.AuthUserListRequest;
import io.etcdj.api.etcdserverpb.AuthUserListResponse;
import io.etcdj.api.etcdserverpb.AuthUserRevokeRoleRequest;
import io.etcdj.api.etcdserverpb.AuthUserRevokeRoleResponse;
import io.etcdj.api.etcdserverpb.AuthenticateRequest;
import io.etcdj.api.etcdserverpb.AuthenticateResponse;
import io.grpc.stub.StreamObserver;

/** etcd's Auth service: users, roles, permissions, the auth switch and logins. */
public final class AuthService extends AuthGrpc.AuthImplBase {
    private final AuthOperations auth;

    public AuthService(AuthOperations auth) {
        this.auth = auth;
    }

    @Override
    public void authEnable(AuthEnableRequest r, StreamObserver<AuthEnableResponse> out) {
        Replies.async(() -> auth.enable(Callers.caller()), out);
    }

    @Override
    public void authDisable(AuthDisableRequest r, StreamObserver<AuthDisableResponse> out) {
        Replies.async(() -> auth.disable(Callers.caller()), out);
    }

    @Override
    public void authStatus(AuthStatusRequest r, StreamObserver<AuthStatusResponse> out) {
        Replies.async(() -> auth.status(Callers.caller()), out);
    }

    @Override
    public void authenticate(AuthenticateRequest r, StreamObserver<AuthenticateResponse> out) {
        Replies.async(() -> auth.authenticate(r.getName(), r.getPassword()), out);
    }

    @Override
    public void userAdd(AuthUserAddRequest r, StreamObserver<AuthUserAddResponse> out) {
        Replies.async(() -> auth.userAdd(Callers.caller(), r), out);
    }

    @Override
    public void userGet(AuthUserGetRequest r, StreamObserver<AuthUserGetResponse> out) {
        Replies.async(() -> auth.userGet(Callers.caller(), r.getName()), out);
    }

    @Override
    public void userList(AuthUserListRequest r, StreamObserver<AuthUserListResponse> out) {
        Replies.async(() -> auth.userList(Callers.caller()), out);
    }

    @Override
    public void userDelete(AuthUserDeleteRequest r, StreamObserver<AuthUserDeleteResponse> out) {
        Replies.async(() -> auth.userDelete(Callers.caller(), r.getName()), out);
    }

    @Override
    public void userChangePassword(AuthUserChangePasswordRequest r, StreamObserver<AuthUserChangePasswordResponse> out) {
        Replies.async(() -> auth.userChangePassword(Callers.caller(), r.getName(), r.getPassword()), out);
    }

    @Override
    public void userGrantRole(AuthUserGrantRoleRequest r, StreamObserver<AuthUserGrantRoleResponse> out) {
        Replies.async(() -> auth.userGrantRole(Callers.caller(), r.getUser(), r.getRole()), out);
    }

    @Override
    public void userRevokeRole(AuthUserRevokeRoleRequest r, StreamObserver<AuthUserRevokeRoleResponse> out) {
        Replies.async(() -> auth.userRevokeRole(Callers.caller(), r.getName(), r.getRole()), out);
    }

    @Override
    public void roleAdd(AuthRoleAddRequest r, StreamObserver<AuthRoleAddResponse> out) {
        Replies.async(() -> auth.roleAdd(Callers.caller(), r.getName()), out);
    }

    @Override
    public void roleGet(AuthRoleGetRequest r, StreamObserver<AuthRoleGetResponse> out) {
        Replies.async(() -> auth.roleGet(Callers.caller(), r.getRole()), out);
    }

    @Override
    public void roleList(AuthRoleListRequest r, StreamObserver<AuthRoleListResponse> out) {
        Replies.async(() -> auth.roleList(Callers.caller()), out);
    }

    @Override
    public void roleDelete(AuthRoleDeleteRequest r, StreamObserver<AuthRoleDeleteResponse> out) {
        Replies.async(() -> auth.roleDelete(Callers.caller(), r.getRole()), out);
    }

    @Override
    public void roleGrantPermission(AuthRoleGrantPermissionRequest r,
                                    StreamObserver<AuthRoleGrantPermissionResponse> out) {
        Replies.async(() -> auth.roleGrantPermission(Callers.caller(), r), out);
    }

    @Override
    public void roleRevokePermission(AuthRoleRevokePermissionRequest r,
                                     StreamObserver<AuthRoleRevokePermissionResponse> out) {
        Replies.async(() -> auth.roleRevokePermission(Callers.caller(), r), out);
    }
}
