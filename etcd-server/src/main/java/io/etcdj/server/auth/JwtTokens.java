package io.etcdj.server.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.MACVerifier;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.etcdj.cli.GoDuration;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.text.ParseException;
import java.time.Duration;
import java.util.Date;
import java.util.Map;
import java.util.function.LongSupplier;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;

/**
 * etcd's {@code jwt} tokens: signed claims {@code username}, {@code revision} and {@code exp},
 * checked by signature and expiry alone, so any member with the public key accepts a token any
 * other member signed, and a token stays valid across restarts until it expires. The revision in
 * the token is the auth revision at login: after any change to users or roles, requests with an
 * older token are refused ({@code etcdserver: revision of auth store is old}) until the client logs
 * in again. Signing and verification use Nimbus JOSE+JWT (a widely used, maintained library)
 * rather than hand-written code.
 */
public final class JwtTokens implements TokenProvider {
    private final JWSAlgorithm algorithm;
    private final JWSSigner signer;
    private final JWSVerifier verifier;
    private final long ttlMillis;
    private final LongSupplier wallMillis;

    JwtTokens(JWSAlgorithm algorithm, JWSSigner signer, JWSVerifier verifier, Duration ttl, LongSupplier wallMillis) {
        this.algorithm = algorithm;
        this.signer = signer;
        this.verifier = verifier;
        this.ttlMillis = ttl.toMillis();
        this.wallMillis = wallMillis;
    }

    /** From --auth-token's options: sign-method, pub-key, priv-key, ttl (default 5m). */
    public static JwtTokens fromOptions(Map<String, String> options, LongSupplier wallMillis) {
        for (String k : options.keySet()) {
            if (!k.equals("sign-method") && !k.equals("pub-key") && !k.equals("priv-key") && !k.equals("ttl")) {
                throw new IllegalArgumentException("unknown token option " + k);
            }
        }
        String method = options.get("sign-method");
        if (method == null || method.isEmpty()) {
            throw new IllegalArgumentException("jwt: sign-method is required");
        }
        JWSAlgorithm alg = JWSAlgorithm.parse(method);
        Duration ttl = options.containsKey("ttl") ? parseTtl(options.get("ttl")) : Duration.ofMinutes(5);
        String pub = options.get("pub-key");
        String priv = options.get("priv-key");
        try {
            if (JWSAlgorithm.Family.HMAC_SHA.contains(alg)) {
                String keyFile = priv != null ? priv : pub;
                if (keyFile == null) {
                    throw new IllegalArgumentException("jwt: " + method + " needs a key file (priv-key)");
                }
                byte[] secret = Files.readAllBytes(Path.of(keyFile));
                return new JwtTokens(alg, new MACSigner(secret), new MACVerifier(secret), ttl, wallMillis);
            }
            boolean rsa = JWSAlgorithm.Family.RSA.contains(alg);
            boolean ec = JWSAlgorithm.Family.EC.contains(alg);
            if (!rsa && !ec) {
                throw new IllegalArgumentException("jwt: unsupported sign-method " + method);
            }
            if (pub == null || pub.isEmpty()) {
                throw new IllegalArgumentException("jwt: pub-key is required");
            }
            PublicKey publicKey = readPublicKey(Path.of(pub));
            PrivateKey privateKey = priv == null || priv.isEmpty() ? null : readPrivateKey(Path.of(priv));
            JWSVerifier verifier = rsa ? new RSASSAVerifier((RSAPublicKey) publicKey) : new ECDSAVerifier((ECPublicKey) publicKey);
            JWSSigner signer = privateKey == null ? null
                    : rsa ? new RSASSASigner(privateKey) : new ECDSASigner((ECPrivateKey) privateKey);
            return new JwtTokens(alg, signer, verifier, ttl, wallMillis);
        } catch (IOException e) {
            throw new IllegalArgumentException("jwt: cannot read key: " + e.getMessage(), e);
        } catch (JOSEException | ClassCastException e) {
            throw new IllegalArgumentException("jwt: key does not fit sign-method " + method + ": " + e.getMessage(), e);
        }
    }

    private static Duration parseTtl(String s) {
        try {
            return GoDuration.parse(s);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("jwt: invalid ttl " + s, e);
        }
    }

    /** The first key or certificate in a PEM file (openssl puts EC PARAMETERS before an EC key). */
    private static Object readPem(Path file) throws IOException {
        try (Reader r = Files.newBufferedReader(file); PEMParser p = new PEMParser(r)) {
            for (Object o = p.readObject(); o != null; o = p.readObject()) {
                if (o instanceof SubjectPublicKeyInfo || o instanceof X509CertificateHolder || o instanceof PEMKeyPair
                        || o instanceof PrivateKeyInfo) {
                    return o;
                }
            }
            throw new IOException(file + " holds no PEM key");
        }
    }

    private static PublicKey readPublicKey(Path file) throws IOException {
        Object o = readPem(file);
        JcaPEMKeyConverter c = new JcaPEMKeyConverter();
        if (o instanceof SubjectPublicKeyInfo spki) {
            return c.getPublicKey(spki);
        }
        if (o instanceof X509CertificateHolder cert) {
            return c.getPublicKey(cert.getSubjectPublicKeyInfo());
        }
        if (o instanceof PEMKeyPair kp) {
            return c.getPublicKey(kp.getPublicKeyInfo());
        }
        throw new IOException(file + " holds no public key");
    }

    private static PrivateKey readPrivateKey(Path file) throws IOException {
        Object o = readPem(file);
        JcaPEMKeyConverter c = new JcaPEMKeyConverter();
        if (o instanceof PEMKeyPair kp) {
            return c.getPrivateKey(kp.getPrivateKeyInfo());
        }
        if (o instanceof PrivateKeyInfo pki) {
            return c.getPrivateKey(pki);
        }
        throw new IOException(file + " holds no unencrypted private key");
    }

    @Override
    public AuthInfo info(String token, long currentRevision) {
        try {
            SignedJWT jwt = SignedJWT.parse(token);
            if (!jwt.getHeader().getAlgorithm().equals(algorithm) || !jwt.verify(verifier)) {
                return null;
            }
            JWTClaimsSet claims = jwt.getJWTClaimsSet();
            Date exp = claims.getExpirationTime();
            Object username = claims.getClaim("username");
            Object revision = claims.getClaim("revision");
            if (exp == null || expired(exp.getTime(), wallMillis.getAsLong()) || !(username instanceof String u)
                    || !(revision instanceof Number rev)) {
                return null;
            }
            return new AuthInfo(u, rev.longValue());
        } catch (ParseException | JOSEException e) {
            return null;
        }
    }

    /**
     * etcd's check (jwt-go's): {@code exp} is whole Unix seconds, and a token is valid while the
     * current Unix second is not past it. Signed at 12:00:00.9 with a 1 s ttl, a token has exp
     * 12:00:01 and lasts until 12:00:02, 1.1 s (from 1 s to just under 2 s, as etcd's); compared in
     * milliseconds it would last 0.1 s, and a client that waits a moment between its login and its
     * next request (etcd's e2e TestCtlV3AuthAndWatchJWT, at a ttl of 1 s) would be refused.
     */
    static boolean expired(long expMillis, long nowMillis) {
        return Math.floorDiv(nowMillis, 1000) > Math.floorDiv(expMillis, 1000);
    }

    @Override
    public String assign(String username, long revision, String simplePrefix, long entryId) {
        if (signer == null) {
            throw AuthError.AUTH_FAILED.exception(); // a verify-only member (pub-key alone) cannot issue tokens
        }
        JWTClaimsSet claims = new JWTClaimsSet.Builder().claim("username", username).claim("revision", revision)
                .expirationTime(new Date(wallMillis.getAsLong() + ttlMillis)).build();
        SignedJWT jwt = new SignedJWT(new JWSHeader(algorithm), claims);
        try {
            jwt.sign(signer);
        } catch (JOSEException e) {
            throw new IllegalStateException("jwt: cannot sign: " + e.getMessage(), e);
        }
        return jwt.serialize();
    }

    @Override
    public void invalidateUser(String username) {
        // signed tokens cannot be recalled; the auth revision in them makes them stale instead
    }

    @Override
    public void disable() {
        // as above: after a disable and enable the revision has moved on
    }
}
