package io.etcdj.server.apply;

import com.google.protobuf.Message;
import io.etcdj.api.etcdserverpb.AuthDisableResponse;
import io.etcdj.api.etcdserverpb.AuthEnableResponse;
import io.etcdj.api.etcdserverpb.AuthRoleAddResponse;
import io.etcdj.api.etcdserverpb.AuthRoleDeleteResponse;
import io.etcdj.api.etcdserverpb.AuthRoleGrantPermissionResponse;
import io.etcdj.api.etcdserverpb.AuthRoleRevokePermissionResponse;
import io.etcdj.api.etcdserverpb.AuthUserAddResponse;
import io.etcdj.api.etcdserverpb.AuthUserChangePasswordResponse;
import io.etcdj.api.etcdserverpb.AuthUserDeleteResponse;
import io.etcdj.api.etcdserverpb.AuthUserGrantRoleResponse;
import io.etcdj.api.etcdserverpb.AuthUserRevokeRoleResponse;
import io.etcdj.api.etcdserverpb.AuthenticateResponse;
import io.etcdj.server.auth.AuthException;
import io.etcdj.server.auth.AuthStore;
import io.etcdj.server.backend.WriteTx;
import io.etcdj.server.mvcc.WriteBatch;
import io.etcdj.serverpb.InternalRaftRequest;

/** The backend stage's share of auth: applies user, role, login and on/off requests to the auth store. */
final class AuthMutations {
    private final AuthStore auth;

    AuthMutations(AuthStore auth) {
        this.auth = auth;
    }

    ApplyResult apply(InternalRaftRequest r, WriteBatch batch) {
        WriteTx tx = batch.backendTx();
        Message resp;
        try {
            resp = switch (r.getRequestCase()) {
                case AUTH_ENABLE -> {
                    auth.enable(tx);
                    yield AuthEnableResponse.getDefaultInstance();
                }
                case AUTH_DISABLE -> {
                    auth.disable(tx);
                    yield AuthDisableResponse.getDefaultInstance();
                }
                case AUTHENTICATE -> AuthenticateResponse.newBuilder().setToken(auth.authenticate(
                        r.getAuthenticate().getName(), r.getAuthenticate().getSimpleToken(), r.getId())).build();
                case USER_ADD -> {
                    auth.userAdd(tx, r.getUserAdd());
                    yield AuthUserAddResponse.getDefaultInstance();
                }
                case USER_DELETE -> {
                    auth.userDelete(tx, r.getUserDelete().getName());
                    yield AuthUserDeleteResponse.getDefaultInstance();
                }
                case USER_CHANGE_PASSWORD -> {
                    auth.userChangePassword(tx, r.getUserChangePassword().getName(),
                            r.getUserChangePassword().getHashedPassword());
                    yield AuthUserChangePasswordResponse.getDefaultInstance();
                }
                case USER_GRANT_ROLE -> {
                    auth.userGrantRole(tx, r.getUserGrantRole().getUser(), r.getUserGrantRole().getRole());
                    yield AuthUserGrantRoleResponse.getDefaultInstance();
                }
                case USER_REVOKE_ROLE -> {
                    auth.userRevokeRole(tx, r.getUserRevokeRole().getName(), r.getUserRevokeRole().getRole());
                    yield AuthUserRevokeRoleResponse.getDefaultInstance();
                }
                case ROLE_ADD -> {
                    auth.roleAdd(tx, r.getRoleAdd().getName());
                    yield AuthRoleAddResponse.getDefaultInstance();
                }
                case ROLE_GRANT_PERMISSION -> {
                    auth.roleGrantPermission(tx, r.getRoleGrantPermission());
                    yield AuthRoleGrantPermissionResponse.getDefaultInstance();
                }
                case ROLE_REVOKE_PERMISSION -> {
                    auth.roleRevokePermission(tx, r.getRoleRevokePermission());
                    yield AuthRoleRevokePermissionResponse.getDefaultInstance();
                }
                case ROLE_DELETE -> {
                    auth.roleDelete(tx, r.getRoleDelete().getRole());
                    yield AuthRoleDeleteResponse.getDefaultInstance();
                }
                default -> throw new IllegalArgumentException("not an auth request: " + r.getRequestCase());
            };
        } catch (AuthException e) {
            return ApplyResult.failed(e.error().etcdError().exception());
        }
        return ApplyResult.ok(resp, batch.revision());
    }
}
