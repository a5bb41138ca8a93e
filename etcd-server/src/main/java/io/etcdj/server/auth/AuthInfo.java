package io.etcdj.server.auth;

/**
 * Who a request comes from: the user its token or certificate names, and the auth revision the
 * token was checked against (a request whose revision is older than the store's when it is applied
 * is refused: permissions may have changed in between). An anonymous caller is {@link #NONE}.
 */
public record AuthInfo(String username, long revision) {
    public static final AuthInfo NONE = new AuthInfo("", 0);

    public boolean anonymous() {
        return username.isEmpty() && revision == 0;
    }
}
