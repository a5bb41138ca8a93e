package io.etcdj.server.auth;

/**
 * A refusal by the auth store, with etcd's auth error (whose text the API layer maps to the one a
 * client sees: {@code etcdserver: ...} for most calls, the raw {@code auth: ...} text where etcd
 * passes it through, as its maintenance service does).
 */
public final class AuthException extends RuntimeException {
    private final AuthError error;

    public AuthException(AuthError error) {
        super(error.rawText(), null, false, false);
        this.error = error;
    }

    public AuthError error() {
        return error;
    }
}
