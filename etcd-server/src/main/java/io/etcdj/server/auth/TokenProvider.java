package io.etcdj.server.auth;

/**
 * Issues and checks the tokens clients send after logging in ({@code --auth-token}). Tokens are
 * issued while the login's Raft entry is applied, on every member, so a token issued through one
 * member is accepted by the others.
 */
public interface TokenProvider {
    /**
     * Who a token names: the user and the auth revision to check its requests against
     * ({@code currentRevision} is the store's revision now), or null for an unknown, expired or
     * forged token.
     */
    AuthInfo info(String token, long currentRevision);

    /**
     * Issues a token for {@code username}, logged in at auth revision {@code revision}.
     * {@code simplePrefix} (random, chosen by the member that took the login) and {@code entryId}
     * (unique per login) make simple tokens identical on every member.
     */
    String assign(String username, long revision, String simplePrefix, long entryId);

    /** The user was deleted or its password changed: its tokens stop working where they can be revoked. */
    void invalidateUser(String username);

    /** Authentication was disabled: tokens issued so far stop working where they can be revoked. */
    void disable();
}
