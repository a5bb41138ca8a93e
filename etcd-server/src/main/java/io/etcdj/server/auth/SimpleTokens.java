package io.etcdj.server.auth;

import java.security.SecureRandom;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * etcd's {@code simple} tokens: a random string and the login's entry number, known to every member
 * (each registers it when it applies the login) and valid while used at least once every
 * {@code --auth-token-ttl}. They are not signed: only members that applied the login know them.
 */
public final class SimpleTokens implements TokenProvider {
    private static final String LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    private static final int PREFIX_LENGTH = 16;
    private static final SecureRandom RANDOM = new SecureRandom();

    private record Issued(String username, long expiresAtNanos) {
    }

    private final Map<String, Issued> tokens = new ConcurrentHashMap<>();
    private final LongSupplier nanoClock;
    private final long ttlNanos;

    public SimpleTokens(LongSupplier nanoClock, long ttlSeconds) {
        this.nanoClock = nanoClock;
        this.ttlNanos = ttlSeconds * 1_000_000_000L;
    }

    /** The random part of a new token, chosen by the member that takes the login. */
    public static String newPrefix() {
        StringBuilder b = new StringBuilder(PREFIX_LENGTH);
        for (int i = 0; i < PREFIX_LENGTH; i++) {
            b.append(LETTERS.charAt(RANDOM.nextInt(LETTERS.length())));
        }
        return b.toString();
    }

    @Override
    public AuthInfo info(String token, long currentRevision) {
        long now = nanoClock.getAsLong();
        Issued issued = tokens.get(token);
        if (issued == null) {
            return null;
        }
        if (now - issued.expiresAtNanos() >= 0) {
            tokens.remove(token, issued);
            return null;
        }
        tokens.replace(token, issued, new Issued(issued.username(), now + ttlNanos));
        return new AuthInfo(issued.username(), currentRevision);
    }

    @Override
    public String assign(String username, long revision, String simplePrefix, long entryId) {
        String token = simplePrefix + "." + Long.toUnsignedString(entryId);
        long now = nanoClock.getAsLong();
        tokens.values().removeIf(t -> now - t.expiresAtNanos() >= 0);
        tokens.put(token, new Issued(username, now + ttlNanos));
        return token;
    }

    @Override
    public void invalidateUser(String username) {
        tokens.values().removeIf(t -> t.username().equals(username));
    }

    @Override
    public void disable() {
        tokens.clear();
    }
}
