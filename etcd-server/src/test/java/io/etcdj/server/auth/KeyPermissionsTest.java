package io.etcdj.server.auth;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.etcdj.api.authpb.Permission;
import io.etcdj.api.authpb.Role;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class KeyPermissionsTest {
    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static Permission perm(Permission.Type t, String key, String end) {
        return Permission.newBuilder().setPermType(t).setKey(ByteString.copyFromUtf8(key))
                .setRangeEnd(ByteString.copyFromUtf8(end)).build();
    }

    private static KeyPermissions of(Permission... perms) {
        return KeyPermissions.of(List.of(Role.newBuilder().setName(ByteString.copyFromUtf8("r"))
                .addAllKeyPermission(List.of(perms)).build()));
    }

    @Test
    void singleKeyPermissionCoversThatKeyOnly() {
        KeyPermissions p = of(perm(Permission.Type.READ, "k1", ""));
        assertTrue(p.canRead(b("k1"), null));
        assertFalse(p.canRead(b("k10"), null));
        assertFalse(p.canRead(b("k1"), b("k2")), "a range beyond the key");
        assertTrue(p.canRead(b("k1"), b("k1\0")), "the range holding only k1");
        assertFalse(p.canWrite(b("k1"), null), "read does not give write");
    }

    @Test
    void prefixAndRangesCoverTheirKeysAndSubranges() {
        KeyPermissions p = of(perm(Permission.Type.READWRITE, "/a/", "/a0"), perm(Permission.Type.WRITE, "k1", "k5"));
        assertTrue(p.canRead(b("/a/x"), null));
        assertTrue(p.canRead(b("/a/"), b("/a0")));
        assertFalse(p.canRead(b("/a"), b("/b")), "wider than the prefix");
        assertTrue(p.canWrite(b("k4zzz"), null));
        assertFalse(p.canWrite(b("k5"), null), "the range end is excluded");
        assertTrue(p.canWrite(b("k2"), b("k5")));
        assertFalse(p.canWrite(b("k2"), b("k6")));
    }

    @Test
    void fromKeyIsOpenEndedAndAdjacentRangesJoin() {
        KeyPermissions p = of(perm(Permission.Type.WRITE, "z", "\0"), perm(Permission.Type.READ, "a", "c"),
                perm(Permission.Type.READ, "c", "e"));
        assertTrue(p.canWrite(b("zzzz"), null));
        assertTrue(p.canWrite(b("z"), b("\0")), "z and everything after it");
        assertFalse(p.canWrite(b("y"), b("\0")));
        assertTrue(p.canRead(b("a"), b("e")), "[a,c) and [c,e) together cover [a,e)");
        assertFalse(p.canRead(b("a"), b("f")));
    }

    @Test
    void noRolesNothingPermitted() {
        KeyPermissions p = KeyPermissions.of(List.of());
        assertFalse(p.canRead(b("a"), null));
        assertFalse(p.canWrite(b("a"), null));
    }
}
