package io.etcdj.server.auth;

import io.etcdj.server.error.EtcdError;

/**
 * etcd's auth package errors: the raw text ({@code auth: ...}, which etcd's maintenance service
 * passes to clients as it is) and the {@link EtcdError} every other service answers with.
 */
public enum AuthError {
    ROOT_USER_NOT_EXIST("auth: root user does not exist", EtcdError.ROOT_USER_NOT_EXIST),
    ROOT_ROLE_NOT_EXIST("auth: root user does not have root role", EtcdError.ROOT_ROLE_NOT_EXIST),
    USER_ALREADY_EXIST("auth: user already exists", EtcdError.USER_ALREADY_EXIST),
    USER_EMPTY("auth: user name is empty", EtcdError.USER_EMPTY),
    USER_NOT_FOUND("auth: user not found", EtcdError.USER_NOT_FOUND),
    ROLE_ALREADY_EXIST("auth: role already exists", EtcdError.ROLE_ALREADY_EXIST),
    ROLE_NOT_FOUND("auth: role not found", EtcdError.ROLE_NOT_FOUND),
    ROLE_EMPTY("auth: role name is empty", EtcdError.ROLE_EMPTY),
    PERMISSION_NOT_GIVEN("auth: permission not given", EtcdError.PERMISSION_NOT_GIVEN),
    AUTH_FAILED("auth: authentication failed, invalid user ID or password", EtcdError.AUTH_FAILED),
    /** etcd 3.4 answers a password login of a certificate-only user with this raw text. */
    NO_PASSWORD_USER("auth: authentication failed, password was given for no password user", EtcdError.NO_PASSWORD_USER),
    PERMISSION_DENIED("auth: permission denied", EtcdError.PERMISSION_DENIED),
    ROLE_NOT_GRANTED("auth: role is not granted to the user", EtcdError.ROLE_NOT_GRANTED),
    PERMISSION_NOT_GRANTED("auth: permission is not granted to the role", EtcdError.PERMISSION_NOT_GRANTED),
    AUTH_NOT_ENABLED("auth: authentication is not enabled", EtcdError.AUTH_NOT_ENABLED),
    AUTH_OLD_REVISION("auth: revision in header is old", EtcdError.AUTH_OLD_REVISION),
    INVALID_AUTH_TOKEN("auth: invalid auth token", EtcdError.INVALID_AUTH_TOKEN),
    INVALID_AUTH_MGMT("auth: invalid auth management", EtcdError.INVALID_AUTH_MGMT);

    private final String rawText;
    private final EtcdError etcdError;

    AuthError(String rawText, EtcdError etcdError) {
        this.rawText = rawText;
        this.etcdError = etcdError;
    }

    public String rawText() {
        return rawText;
    }

    /** What etcd's services (other than maintenance) answer for this error. */
    public EtcdError etcdError() {
        return etcdError;
    }

    public AuthException exception() {
        return new AuthException(this);
    }
}
