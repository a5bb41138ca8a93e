package io.etcdj.server.auth;

import java.util.Map;
import java.util.function.LongSupplier;

/** Builds the token provider --auth-token asks for. */
public final class Tokens {
    private Tokens() {
    }

    /**
     * The provider of {@code tokenType} ("simple" or "jwt") with --auth-token's options and
     * --auth-token-ttl. {@code nanoClock} times simple tokens; JWT expiry uses the wall clock, which
     * every member shares.
     *
     * @throws IllegalArgumentException when the JWT options do not make a signer (the bootstrap
     *     reports it as the flag's error)
     */
    public static TokenProvider create(String tokenType, Map<String, String> tokenOptions, long ttlSeconds,
                                       LongSupplier nanoClock) {
        if (tokenType.equals("jwt")) {
            return JwtTokens.fromOptions(tokenOptions, System::currentTimeMillis);
        }
        return new SimpleTokens(nanoClock, ttlSeconds);
    }
}
