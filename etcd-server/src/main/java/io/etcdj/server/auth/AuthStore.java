package io.etcdj.server.auth;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.etcdj.api.authpb.Permission;
import io.etcdj.api.authpb.Role;
import io.etcdj.api.authpb.User;
import io.etcdj.api.authpb.UserAddOptions;
import io.etcdj.api.etcdserverpb.AuthRoleGrantPermissionRequest;
import io.etcdj.api.etcdserverpb.AuthRoleRevokePermissionRequest;
import io.etcdj.api.etcdserverpb.AuthUserAddRequest;
import io.etcdj.server.backend.Bucket;
import io.etcdj.server.backend.Bytes;
import io.etcdj.server.backend.ReadTx;
import io.etcdj.server.backend.WriteTx;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Users, roles and the auth switch, as etcd's auth store keeps them: in the backend's
 * {@code authUsers} (name to authpb.User, password as a bcrypt hash), {@code authRoles} (name to
 * authpb.Role) and {@code auth} buckets ({@code authEnabled}: one byte, {@code authRevision}: a
 * big-endian uint64 counting every change), so that a snapshot carries them in etcd's layout.
 *
 * <p>Changes happen only on the apply path, one at a time, and replace an immutable state that
 * any thread may read. Every change raises the auth revision: a request checked against an older
 * revision is refused when applied ({@link AuthError#AUTH_OLD_REVISION}).
 */
public final class AuthStore {
    public static final String ROOT = "root";
    static final byte[] ENABLED_KEY = "authEnabled".getBytes(StandardCharsets.US_ASCII);
    static final byte[] REVISION_KEY = "authRevision".getBytes(StandardCharsets.US_ASCII);

    private record State(boolean enabled, long revision, Map<String, User> users, Map<String, Role> roles,
                         Map<String, KeyPermissions> permissions) {
        State with(boolean enabled, long revision, Map<String, User> users, Map<String, Role> roles) {
            return new State(enabled, revision, Collections.unmodifiableMap(users), Collections.unmodifiableMap(roles),
                    new ConcurrentHashMap<>());
        }
    }

    private volatile State state = new State(false, 0, Map.of(), Map.of(), new ConcurrentHashMap<>());
    private volatile TokenProvider tokens;

    public AuthStore(TokenProvider tokens) {
        this.tokens = tokens;
    }

    /** The server sets its configured provider (--auth-token) before serving. */
    public void setTokenProvider(TokenProvider tokens) {
        this.tokens = tokens;
    }

    public TokenProvider tokens() {
        return tokens;
    }

    /** Loads the store from the backend (at start and after a snapshot is installed). */
    public void restore(ReadTx tx) {
        byte[] en = tx.get(Bucket.AUTH, ENABLED_KEY);
        byte[] rev = tx.get(Bucket.AUTH, REVISION_KEY);
        Map<String, User> users = new TreeMap<>();
        tx.forEach(Bucket.AUTH_USERS, null, null, (k, v) -> {
            users.put(new String(k, StandardCharsets.UTF_8), parse(() -> User.parseFrom(v)));
            return true;
        });
        Map<String, Role> roles = new TreeMap<>();
        tx.forEach(Bucket.AUTH_ROLES, null, null, (k, v) -> {
            roles.put(new String(k, StandardCharsets.UTF_8), parse(() -> Role.parseFrom(v)));
            return true;
        });
        boolean enabled = en != null && en.length == 1 && en[0] == 1;
        long revision = rev != null && rev.length == 8 ? Bytes.toLong(rev) : 0;
        state = state.with(enabled, revision, users, roles);
    }

    private interface Parser<T> {
        T parse() throws InvalidProtocolBufferException;
    }

    private static <T> T parse(Parser<T> p) {
        try {
            return p.parse();
        } catch (InvalidProtocolBufferException e) {
            throw new IllegalStateException("unreadable auth record in the backend: " + e.getMessage(), e);
        }
    }

    // ---- reads (any thread) ----

    public boolean enabled() {
        return state.enabled();
    }

    public long revision() {
        return state.revision();
    }

    /** The login check, on the member that takes the login: the password against its hash. */
    public void checkPassword(String name, String password) {
        State s = state;
        if (!s.enabled()) {
            throw AuthError.AUTH_NOT_ENABLED.exception();
        }
        User u = s.users().get(name);
        if (u == null) {
            throw AuthError.AUTH_FAILED.exception();
        }
        if (u.hasOptions() && u.getOptions().getNoPassword()) {
            throw AuthError.NO_PASSWORD_USER.exception();
        }
        if (!Passwords.matches(u.getPassword().toByteArray(), password)) {
            throw AuthError.AUTH_FAILED.exception();
        }
    }

    public User user(String name) {
        User u = state.users().get(name);
        if (u == null) {
            throw AuthError.USER_NOT_FOUND.exception();
        }
        return u;
    }

    public List<String> userNames() {
        return new ArrayList<>(state.users().keySet());
    }

    public Role role(String name) {
        Role r = state.roles().get(name);
        if (r == null) {
            throw AuthError.ROLE_NOT_FOUND.exception();
        }
        return r;
    }

    public List<String> roleNames() {
        return new ArrayList<>(state.roles().keySet());
    }

    /** Whether the user exists and holds the role (etcd lets a user read its own roles). */
    public boolean hasRole(String username, String role) {
        User u = state.users().get(username);
        return u != null && u.getRolesList().contains(role);
    }

    /** Root-only operations: user and role management, maintenance, membership changes. */
    public void checkAdmin(AuthInfo ai) {
        State s = state;
        if (!s.enabled()) {
            return;
        }
        if (ai == null || ai.username().isEmpty()) {
            throw AuthError.USER_EMPTY.exception();
        }
        User u = s.users().get(ai.username());
        if (u == null) {
            throw AuthError.USER_NOT_FOUND.exception();
        }
        if (!u.getRolesList().contains(ROOT)) {
            throw AuthError.PERMISSION_DENIED.exception();
        }
    }

    public void checkRead(AuthInfo ai, byte[] key, byte[] rangeEnd) {
        check(ai, key, rangeEnd, false);
    }

    public void checkWrite(AuthInfo ai, byte[] key, byte[] rangeEnd) {
        check(ai, key, rangeEnd, true);
    }

    private void check(AuthInfo ai, byte[] key, byte[] rangeEnd, boolean write) {
        State s = state;
        if (!s.enabled()) {
            return;
        }
        if (ai == null || ai.revision() == 0) {
            throw AuthError.USER_EMPTY.exception();
        }
        if (ai.revision() < s.revision()) {
            throw AuthError.AUTH_OLD_REVISION.exception();
        }
        User u = s.users().get(ai.username());
        if (u == null) {
            throw AuthError.PERMISSION_DENIED.exception();
        }
        if (u.getRolesList().contains(ROOT)) {
            return;
        }
        KeyPermissions p = s.permissions().computeIfAbsent(u.getName().toStringUtf8(), n -> KeyPermissions.of(
                u.getRolesList().stream().map(r -> s.roles().get(r)).filter(r -> r != null).toList()));
        if (!(write ? p.canWrite(key, rangeEnd) : p.canRead(key, rangeEnd))) {
            throw AuthError.PERMISSION_DENIED.exception();
        }
    }

    /** Who a token names, or {@link AuthError#INVALID_AUTH_TOKEN}. */
    public AuthInfo infoFromToken(String token) {
        AuthInfo ai = tokens.info(token, state.revision());
        if (ai == null) {
            throw AuthError.INVALID_AUTH_TOKEN.exception();
        }
        return ai;
    }

    /** A client certificate's common name as the user (with --client-cert-auth and no token). */
    public AuthInfo infoFromCommonName(String commonName) {
        return new AuthInfo(commonName, state.revision());
    }

    // ---- changes (apply path only) ----

    public void enable(WriteTx tx) {
        State s = state;
        if (s.enabled()) {
            return;
        }
        User root = s.users().get(ROOT);
        if (root == null) {
            throw AuthError.ROOT_USER_NOT_EXIST.exception();
        }
        if (!root.getRolesList().contains(ROOT)) {
            throw AuthError.ROOT_ROLE_NOT_EXIST.exception();
        }
        tx.put(Bucket.AUTH, ENABLED_KEY, new byte[] {1});
        commit(tx, true, s.users(), s.roles());
    }

    public void disable(WriteTx tx) {
        State s = state;
        if (!s.enabled()) {
            return;
        }
        tx.put(Bucket.AUTH, ENABLED_KEY, new byte[] {0});
        commit(tx, false, s.users(), s.roles());
        tokens.disable();
    }

    /** Applies a login: issues the token every member will accept. */
    public String authenticate(String name, String simplePrefix, long entryId) {
        State s = state;
        if (!s.enabled()) {
            throw AuthError.AUTH_NOT_ENABLED.exception();
        }
        if (!s.users().containsKey(name)) {
            throw AuthError.AUTH_FAILED.exception();
        }
        return tokens.assign(name, s.revision(), simplePrefix, entryId);
    }

    /** {@code r.getHashedPassword()} was set by the member that took the request. */
    public void userAdd(WriteTx tx, AuthUserAddRequest r) {
        State s = state;
        if (r.getName().isEmpty()) {
            throw AuthError.USER_EMPTY.exception();
        }
        if (s.users().containsKey(r.getName())) {
            throw AuthError.USER_ALREADY_EXIST.exception();
        }
        UserAddOptions options = r.hasOptions() ? r.getOptions() : UserAddOptions.getDefaultInstance();
        User.Builder u = User.newBuilder().setName(ByteString.copyFromUtf8(r.getName())).setOptions(options);
        if (!options.getNoPassword()) {
            u.setPassword(ByteString.copyFromUtf8(r.getHashedPassword()));
        }
        Map<String, User> users = new TreeMap<>(s.users());
        putUser(tx, users, u.build());
        commit(tx, s.enabled(), users, s.roles());
    }

    public void userDelete(WriteTx tx, String name) {
        State s = state;
        if (s.enabled() && ROOT.equals(name)) {
            throw AuthError.INVALID_AUTH_MGMT.exception();
        }
        if (!s.users().containsKey(name)) {
            throw AuthError.USER_NOT_FOUND.exception();
        }
        Map<String, User> users = new TreeMap<>(s.users());
        users.remove(name);
        tx.delete(Bucket.AUTH_USERS, name.getBytes(StandardCharsets.UTF_8));
        commit(tx, s.enabled(), users, s.roles());
        tokens.invalidateUser(name);
    }

    public void userChangePassword(WriteTx tx, String name, String hashedPassword) {
        State s = state;
        User u = s.users().get(name);
        if (u == null) {
            throw AuthError.USER_NOT_FOUND.exception();
        }
        Map<String, User> users = new TreeMap<>(s.users());
        putUser(tx, users, u.toBuilder().setPassword(ByteString.copyFromUtf8(hashedPassword)).build());
        commit(tx, s.enabled(), users, s.roles());
        tokens.invalidateUser(name);
    }

    public void userGrantRole(WriteTx tx, String name, String role) {
        State s = state;
        User u = s.users().get(name);
        if (u == null) {
            throw AuthError.USER_NOT_FOUND.exception();
        }
        if (!ROOT.equals(role) && !s.roles().containsKey(role)) {
            throw AuthError.ROLE_NOT_FOUND.exception();
        }
        if (u.getRolesList().contains(role)) {
            return; // etcd ignores a repeated grant
        }
        List<String> roles = new ArrayList<>(u.getRolesList());
        roles.add(role);
        Collections.sort(roles);
        Map<String, User> users = new TreeMap<>(s.users());
        putUser(tx, users, u.toBuilder().clearRoles().addAllRoles(roles).build());
        commit(tx, s.enabled(), users, s.roles());
    }

    public void userRevokeRole(WriteTx tx, String name, String role) {
        State s = state;
        if (s.enabled() && ROOT.equals(name) && ROOT.equals(role)) {
            throw AuthError.INVALID_AUTH_MGMT.exception();
        }
        User u = s.users().get(name);
        if (u == null) {
            throw AuthError.USER_NOT_FOUND.exception();
        }
        if (!u.getRolesList().contains(role)) {
            throw AuthError.ROLE_NOT_GRANTED.exception();
        }
        List<String> roles = new ArrayList<>(u.getRolesList());
        roles.remove(role);
        Map<String, User> users = new TreeMap<>(s.users());
        putUser(tx, users, u.toBuilder().clearRoles().addAllRoles(roles).build());
        commit(tx, s.enabled(), users, s.roles());
    }

    public void roleAdd(WriteTx tx, String name) {
        State s = state;
        if (name.isEmpty()) {
            throw AuthError.ROLE_EMPTY.exception();
        }
        if (s.roles().containsKey(name)) {
            throw AuthError.ROLE_ALREADY_EXIST.exception();
        }
        Map<String, Role> roles = new TreeMap<>(s.roles());
        putRole(tx, roles, Role.newBuilder().setName(ByteString.copyFromUtf8(name)).build());
        commit(tx, s.enabled(), s.users(), roles);
    }

    public void roleDelete(WriteTx tx, String name) {
        State s = state;
        if (s.enabled() && ROOT.equals(name)) {
            throw AuthError.INVALID_AUTH_MGMT.exception();
        }
        if (!s.roles().containsKey(name)) {
            throw AuthError.ROLE_NOT_FOUND.exception();
        }
        Map<String, Role> roles = new TreeMap<>(s.roles());
        roles.remove(name);
        tx.delete(Bucket.AUTH_ROLES, name.getBytes(StandardCharsets.UTF_8));
        Map<String, User> users = new TreeMap<>(s.users());
        for (User u : s.users().values()) {
            if (u.getRolesList().contains(name)) {
                List<String> left = new ArrayList<>(u.getRolesList());
                left.remove(name);
                putUser(tx, users, u.toBuilder().clearRoles().addAllRoles(left).build());
            }
        }
        commit(tx, s.enabled(), users, roles);
    }

    public void roleGrantPermission(WriteTx tx, AuthRoleGrantPermissionRequest r) {
        State s = state;
        Role role = s.roles().get(r.getName());
        if (role == null) {
            throw AuthError.ROLE_NOT_FOUND.exception();
        }
        if (!r.hasPerm()) {
            throw AuthError.PERMISSION_NOT_GIVEN.exception();
        }
        Permission p = r.getPerm();
        List<Permission> perms = new ArrayList<>(role.getKeyPermissionList());
        // As etcd: only the first permission on the same key is a candidate for an update (a second
        // grant of a range whose key has another permission first is added again, as etcd 3.4 does).
        int first = 0;
        while (first < perms.size()
                && ByteString.unsignedLexicographicalComparator().compare(perms.get(first).getKey(), p.getKey()) < 0) {
            first++;
        }
        if (first < perms.size() && perms.get(first).getKey().equals(p.getKey())
                && perms.get(first).getRangeEnd().equals(p.getRangeEnd())) {
            perms.set(first, perms.get(first).toBuilder().setPermType(p.getPermType()).build());
        } else {
            perms.add(p);
            // stable: permissions on the same key keep the order they were granted in
            perms.sort(Comparator.comparing(Permission::getKey, ByteString.unsignedLexicographicalComparator()));
        }
        Map<String, Role> roles = new TreeMap<>(s.roles());
        putRole(tx, roles, role.toBuilder().clearKeyPermission().addAllKeyPermission(perms).build());
        commit(tx, s.enabled(), s.users(), roles);
    }

    public void roleRevokePermission(WriteTx tx, AuthRoleRevokePermissionRequest r) {
        State s = state;
        Role role = s.roles().get(r.getRole());
        if (role == null) {
            throw AuthError.ROLE_NOT_FOUND.exception();
        }
        List<Permission> perms = new ArrayList<>(role.getKeyPermissionList());
        // every permission on exactly this key and range goes (a range granted twice is held twice)
        if (!perms.removeIf(p -> p.getKey().equals(r.getKey()) && p.getRangeEnd().equals(r.getRangeEnd()))) {
            throw AuthError.PERMISSION_NOT_GRANTED.exception();
        }
        Map<String, Role> roles = new TreeMap<>(s.roles());
        putRole(tx, roles, role.toBuilder().clearKeyPermission().addAllKeyPermission(perms).build());
        commit(tx, s.enabled(), s.users(), roles);
    }

    private static void putUser(WriteTx tx, Map<String, User> users, User u) {
        String name = u.getName().toStringUtf8();
        users.put(name, u);
        tx.put(Bucket.AUTH_USERS, name.getBytes(StandardCharsets.UTF_8), u.toByteArray());
    }

    private static void putRole(WriteTx tx, Map<String, Role> roles, Role r) {
        String name = r.getName().toStringUtf8();
        roles.put(name, r);
        tx.put(Bucket.AUTH_ROLES, name.getBytes(StandardCharsets.UTF_8), r.toByteArray());
    }

    private void commit(WriteTx tx, boolean enabled, Map<String, User> users, Map<String, Role> roles) {
        long revision = state.revision() + 1;
        tx.put(Bucket.AUTH, REVISION_KEY, Bytes.longBytes(revision));
        state = state.with(enabled, revision, users, roles);
    }
}
