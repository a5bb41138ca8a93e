package io.etcdj.server.config;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The auth flags: {@code --auth-token} (its type, {@code simple} or {@code jwt}, and the JWT
 * options after it: {@code jwt,pub-key=...,priv-key=...,sign-method=...,ttl=...}),
 * {@code --bcrypt-cost} and {@code --auth-token-ttl} (seconds a simple token lives unused).
 */
public record AuthOptions(String tokenType, Map<String, String> tokenOptions, int bcryptCost, long tokenTtlSeconds) {
    public static final AuthOptions DEFAULTS = new AuthOptions("simple", Map.of(), 10, 300);

    static AuthOptions parse(String authToken, long bcryptCost, long ttlSeconds) throws ConfigException {
        if (bcryptCost < 4 || bcryptCost > 31) {
            throw new ConfigException("--bcrypt-cost must be between 4 and 31, got " + bcryptCost);
        }
        if (ttlSeconds <= 0) {
            throw new ConfigException("--auth-token-ttl must be a positive number of seconds, got " + ttlSeconds);
        }
        String[] parts = authToken.trim().split(",");
        String type = parts[0];
        Map<String, String> options = new LinkedHashMap<>();
        for (int i = 1; i < parts.length; i++) {
            int eq = parts[i].indexOf('=');
            if (eq <= 0) {
                throw new ConfigException("--auth-token: invalid auth options: " + parts[i]);
            }
            options.put(parts[i].substring(0, eq), parts[i].substring(eq + 1));
        }
        if (!type.equals("simple") && !type.equals("jwt")) {
            throw new ConfigException("--auth-token: unknown token type \"" + type + "\" (simple or jwt)");
        }
        return new AuthOptions(type, Map.copyOf(options), (int) bcryptCost, ttlSeconds);
    }
}
