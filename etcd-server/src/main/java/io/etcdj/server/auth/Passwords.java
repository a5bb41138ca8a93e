package io.etcdj.server.auth;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import org.bouncycastle.crypto.generators.OpenBSDBCrypt;

/**
 * Password hashes as etcd stores them: bcrypt in its {@code $2a$} form (Go's bcrypt package writes
 * that form, so hashes move between etcd and us in snapshots), at {@code --bcrypt-cost}.
 * BouncyCastle's bcrypt is used rather than a hand-written one: it is already on the class path
 * for TLS and is widely reviewed.
 */
public final class Passwords {
    /** etcd's default and bounds for --bcrypt-cost. */
    public static final int DEFAULT_COST = 10;
    public static final int MIN_COST = 4;
    public static final int MAX_COST = 31;

    private static final SecureRandom RANDOM = new SecureRandom();

    private Passwords() {
    }

    public static String hash(String password, int cost) {
        byte[] salt = new byte[16];
        RANDOM.nextBytes(salt);
        return OpenBSDBCrypt.generate("2a", password.getBytes(StandardCharsets.UTF_8), salt, cost);
    }

    /** Whether {@code password} matches a stored hash; a malformed hash matches nothing. */
    public static boolean matches(byte[] storedHash, String password) {
        if (storedHash == null || storedHash.length == 0) {
            return false;
        }
        try {
            return OpenBSDBCrypt.checkPassword(new String(storedHash, StandardCharsets.US_ASCII),
                    password.getBytes(StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
