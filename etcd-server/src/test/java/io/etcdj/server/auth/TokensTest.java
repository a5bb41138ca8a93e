package io.etcdj.server.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TokensTest {
    @TempDir
    Path dir;

    @Test
    void simpleTokensLiveWhileUsedWithinTheirTtl() {
        AtomicLong nanos = new AtomicLong();
        SimpleTokens tokens = new SimpleTokens(nanos::get, 10);
        String t = tokens.assign("alice", 3, "prefix", 7);
        assertEquals("prefix.7", t);
        nanos.addAndGet(9_000_000_000L);
        assertEquals(new AuthInfo("alice", 5), tokens.info(t, 5), "the current revision is the token's");
        nanos.addAndGet(9_000_000_000L);
        assertEquals("alice", tokens.info(t, 5).username(), "each use renews the token");
        nanos.addAndGet(10_000_000_000L);
        assertNull(tokens.info(t, 5), "unused for a whole TTL: gone");
        String u = tokens.assign("bob", 3, "other", 8);
        tokens.invalidateUser("bob");
        assertNull(tokens.info(u, 5));
        assertNull(tokens.info("forged.1", 5));
    }

    private Path pem(Object key, String name) throws Exception {
        StringWriter w = new StringWriter();
        try (JcaPEMWriter p = new JcaPEMWriter(w)) {
            p.writeObject(key);
        }
        Path f = dir.resolve(name);
        Files.writeString(f, w.toString());
        return f;
    }

    @Test
    void jwtTokensAreVerifiedBySignatureAndExpiryAndCarryTheirRevision() throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
        g.initialize(2048);
        KeyPair kp = g.generateKeyPair();
        Path pub = pem(kp.getPublic(), "pub.pem");
        Path priv = pem(kp.getPrivate(), "priv.pem");
        AtomicLong wall = new AtomicLong(1_000_000);
        JwtTokens signer = JwtTokens.fromOptions(Map.of("sign-method", "RS256", "pub-key", pub.toString(),
                "priv-key", priv.toString(), "ttl", "1m"), wall::get);
        JwtTokens verifier = JwtTokens.fromOptions(Map.of("sign-method", "RS256", "pub-key", pub.toString()), wall::get);
        String token = signer.assign("alice", 4, "ignored", 1);
        assertEquals(new AuthInfo("alice", 4), verifier.info(token, 9), "another member accepts it, at its login revision");
        assertNull(verifier.info(token.substring(0, token.length() - 4) + "AAAA", 9), "a tampered signature");
        KeyPair other = g.generateKeyPair();
        JwtTokens stranger = JwtTokens.fromOptions(Map.of("sign-method", "RS256", "pub-key",
                pem(other.getPublic(), "other.pem").toString()), wall::get);
        assertNull(stranger.info(token, 9), "a token of another cluster's key");
        wall.addAndGet(61_000);
        assertNull(verifier.info(token, 9), "expired");
        assertEquals(AuthError.AUTH_FAILED, assertThrows(AuthException.class,
                () -> verifier.assign("alice", 4, "", 1)).error(), "a verify-only member cannot sign");
    }

    @Test
    void aJwtTokenLastsUntilTheEndOfItsExpirySecondAsEtcds() throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
        g.initialize(2048);
        KeyPair kp = g.generateKeyPair();
        AtomicLong wall = new AtomicLong(1_700_000_000_900L); // 0.9 s into a second
        JwtTokens tokens = JwtTokens.fromOptions(Map.of("sign-method", "RS256", "pub-key", pem(kp.getPublic(), "pub.pem").toString(),
                "priv-key", pem(kp.getPrivate(), "priv.pem").toString(), "ttl", "1s"), wall::get);
        String token = tokens.assign("alice", 4, "", 1);
        wall.set(1_700_000_001_500L); // 0.6 s later: past "issued + ttl" in milliseconds, within exp's second
        assertEquals(new AuthInfo("alice", 4), tokens.info(token, 4), "exp is 1 700 000 001 s: valid through that second");
        wall.set(1_700_000_001_999L);
        assertEquals(new AuthInfo("alice", 4), tokens.info(token, 4), "the last millisecond of exp's second");
        wall.set(1_700_000_002_000L);
        assertNull(tokens.info(token, 4), "the next second: expired");
    }

    @Test
    void jwtOptionsAreChecked() {
        assertThrows(IllegalArgumentException.class, () -> JwtTokens.fromOptions(Map.of("pub-key", "x"), () -> 0));
        assertThrows(IllegalArgumentException.class, () -> JwtTokens.fromOptions(
                Map.of("sign-method", "RS256", "pub-key", dir.resolve("missing.pem").toString()), () -> 0));
        assertThrows(IllegalArgumentException.class, () -> JwtTokens.fromOptions(
                Map.of("sign-method", "RS256", "bogus", "1"), () -> 0));
    }
}
