package io.etcdj.server.error;

import io.grpc.Status;

/**
 * The catalogue of errors a client can see, with etcd's gRPC status codes and texts. Clients
 * (etcdctl, clientv3, jetcd) match on these texts, so they are etcd's, letter for letter.
 */
public enum EtcdError {
    EMPTY_KEY(Status.Code.INVALID_ARGUMENT, "etcdserver: key is not provided"),
    KEY_NOT_FOUND(Status.Code.INVALID_ARGUMENT, "etcdserver: key not found"),
    VALUE_PROVIDED(Status.Code.INVALID_ARGUMENT, "etcdserver: value is provided"),
    LEASE_PROVIDED(Status.Code.INVALID_ARGUMENT, "etcdserver: lease is provided"),
    TOO_MANY_OPS(Status.Code.INVALID_ARGUMENT, "etcdserver: too many operations in txn request"),
    DUPLICATE_KEY(Status.Code.INVALID_ARGUMENT, "etcdserver: duplicate key given in txn request"),
    INVALID_SORT_OPTION(Status.Code.INVALID_ARGUMENT, "etcdserver: invalid sort option"),
    COMPACTED(Status.Code.OUT_OF_RANGE, "etcdserver: mvcc: required revision has been compacted"),
    FUTURE_REV(Status.Code.OUT_OF_RANGE, "etcdserver: mvcc: required revision is a future revision"),
    NO_SPACE(Status.Code.RESOURCE_EXHAUSTED, "etcdserver: mvcc: database space exceeded"),

    LEASE_NOT_FOUND(Status.Code.NOT_FOUND, "etcdserver: requested lease not found"),
    LEASE_EXIST(Status.Code.FAILED_PRECONDITION, "etcdserver: lease already exists"),
    LEASE_TTL_TOO_LARGE(Status.Code.OUT_OF_RANGE, "etcdserver: too large lease TTL"),

    WATCH_CANCELED(Status.Code.CANCELLED, "etcdserver: watch canceled"),

    MEMBER_EXIST(Status.Code.FAILED_PRECONDITION, "etcdserver: member ID already exist"),
    PEER_URL_EXIST(Status.Code.FAILED_PRECONDITION, "etcdserver: Peer URLs already exists"),
    MEMBER_NOT_ENOUGH_STARTED(Status.Code.FAILED_PRECONDITION,
            "etcdserver: re-configuration failed due to not enough started members"),
    MEMBER_BAD_URLS(Status.Code.INVALID_ARGUMENT, "etcdserver: given member URLs are invalid"),
    MEMBER_NOT_FOUND(Status.Code.NOT_FOUND, "etcdserver: member not found"),
    MEMBER_NOT_LEARNER(Status.Code.FAILED_PRECONDITION, "etcdserver: can only promote a learner member"),
    LEARNER_NOT_READY(Status.Code.FAILED_PRECONDITION,
            "etcdserver: can only promote a learner member which is in sync with leader"),
    TOO_MANY_LEARNERS(Status.Code.FAILED_PRECONDITION, "etcdserver: too many learner members in cluster"),

    REQUEST_TOO_LARGE(Status.Code.INVALID_ARGUMENT, "etcdserver: request is too large"),
    TOO_MANY_REQUESTS(Status.Code.RESOURCE_EXHAUSTED, "etcdserver: too many requests"),

    ROOT_USER_NOT_EXIST(Status.Code.FAILED_PRECONDITION, "etcdserver: root user does not exist"),
    ROOT_ROLE_NOT_EXIST(Status.Code.FAILED_PRECONDITION, "etcdserver: root user does not have root role"),
    USER_ALREADY_EXIST(Status.Code.FAILED_PRECONDITION, "etcdserver: user name already exists"),
    USER_EMPTY(Status.Code.INVALID_ARGUMENT, "etcdserver: user name is empty"),
    USER_NOT_FOUND(Status.Code.FAILED_PRECONDITION, "etcdserver: user name not found"),
    ROLE_ALREADY_EXIST(Status.Code.FAILED_PRECONDITION, "etcdserver: role name already exists"),
    ROLE_NOT_FOUND(Status.Code.FAILED_PRECONDITION, "etcdserver: role name not found"),
    ROLE_EMPTY(Status.Code.INVALID_ARGUMENT, "etcdserver: role name is empty"),
    AUTH_FAILED(Status.Code.INVALID_ARGUMENT, "etcdserver: authentication failed, invalid user ID or password"),
    NO_PASSWORD_USER(Status.Code.UNKNOWN, "auth: authentication failed, password was given for no password user"),
    PERMISSION_NOT_GIVEN(Status.Code.INVALID_ARGUMENT, "etcdserver: permission not given"),
    PERMISSION_DENIED(Status.Code.PERMISSION_DENIED, "etcdserver: permission denied"),
    ROLE_NOT_GRANTED(Status.Code.FAILED_PRECONDITION, "etcdserver: role is not granted to the user"),
    PERMISSION_NOT_GRANTED(Status.Code.FAILED_PRECONDITION, "etcdserver: permission is not granted to the role"),
    AUTH_NOT_ENABLED(Status.Code.FAILED_PRECONDITION, "etcdserver: authentication is not enabled"),
    INVALID_AUTH_TOKEN(Status.Code.UNAUTHENTICATED, "etcdserver: invalid auth token"),
    INVALID_AUTH_MGMT(Status.Code.INVALID_ARGUMENT, "etcdserver: invalid auth management"),
    AUTH_OLD_REVISION(Status.Code.INVALID_ARGUMENT, "etcdserver: revision of auth store is old"),

    NO_LEADER(Status.Code.UNAVAILABLE, "etcdserver: no leader"),
    NOT_LEADER(Status.Code.FAILED_PRECONDITION, "etcdserver: not leader"),
    LEADER_CHANGED(Status.Code.UNAVAILABLE, "etcdserver: leader changed"),
    NOT_CAPABLE(Status.Code.UNAVAILABLE, "etcdserver: not capable"),
    STOPPED(Status.Code.UNAVAILABLE, "etcdserver: server stopped"),
    TIMEOUT(Status.Code.UNAVAILABLE, "etcdserver: request timed out"),
    TIMEOUT_LEADER_TRANSFER(Status.Code.UNAVAILABLE, "etcdserver: request timed out, leader transfer took too long"),
    TIMEOUT_DUE_TO_LEADER_FAIL(Status.Code.UNAVAILABLE,
            "etcdserver: request timed out, possibly due to previous leader failure"),
    TIMEOUT_DUE_TO_CONNECTION_LOST(Status.Code.UNAVAILABLE,
            "etcdserver: request timed out, possibly due to connection lost"),
    UNHEALTHY(Status.Code.UNAVAILABLE, "etcdserver: unhealthy cluster"),
    CORRUPT(Status.Code.DATA_LOSS, "etcdserver: corrupt cluster"),
    NOT_SUPPORTED_FOR_LEARNER(Status.Code.UNAVAILABLE, "etcdserver: rpc not supported for learner"),
    BAD_LEADER_TRANSFEREE(Status.Code.FAILED_PRECONDITION, "etcdserver: bad leader transferee"),
    UNKNOWN_METHOD(Status.Code.UNIMPLEMENTED, "etcdserver: unknown method"),

    WRONG_DOWNGRADE_VERSION_FORMAT(Status.Code.INVALID_ARGUMENT, "etcdserver: wrong downgrade target version format"),
    INVALID_DOWNGRADE_TARGET_VERSION(Status.Code.INVALID_ARGUMENT, "etcdserver: invalid downgrade target version"),
    DOWNGRADE_IN_PROCESS(Status.Code.FAILED_PRECONDITION, "etcdserver: cluster has a downgrade job in progress"),
    NO_INFLIGHT_DOWNGRADE(Status.Code.FAILED_PRECONDITION, "etcdserver: no inflight downgrade job");

    private final Status.Code code;
    private final String text;

    EtcdError(Status.Code code, String text) {
        this.code = code;
        this.text = text;
    }

    public Status.Code code() {
        return code;
    }

    public String text() {
        return text;
    }

    public EtcdException exception() {
        return new EtcdException(this);
    }

    /** The gRPC status a client receives for this error. */
    public Status status() {
        return Status.fromCode(code).withDescription(text);
    }
}
