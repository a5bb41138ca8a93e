package io.etcdj.server.auth;

import io.etcdj.server.config.AuthOptions;
import io.etcdj.server.config.ConfigException;
import java.util.function.LongSupplier;

/** Builds the token provider --auth-token asks for. */
public final class Tokens {
    private Tokens() {
    }

    /** {@code nanoClock} times simple tokens; JWT expiry uses the wall clock, which every member shares. */
    public static TokenProvider create(AuthOptions options, LongSupplier nanoClock) throws ConfigException {
        if (options.tokenType().equals("jwt")) {
            try {
                return JwtTokens.fromOptions(options.tokenOptions(), System::currentTimeMillis);
            } catch (IllegalArgumentException e) {
                throw new ConfigException("--auth-token: " + e.getMessage());
            }
        }
        return new SimpleTokens(nanoClock, options.tokenTtlSeconds());
    }
}
