/**
 * etcd's authentication and role-based access control: users, roles and their key permissions
 * ({@link io.etcdj.server.auth.AuthStore}, kept in the backend's {@code auth}, {@code authUsers} and
 * {@code authRoles} buckets in etcd's own layout), the permission rules
 * ({@link io.etcdj.server.auth.KeyPermissions}), password hashing
 * ({@link io.etcdj.server.auth.Passwords}) and the tokens that name a caller
 * ({@link io.etcdj.server.auth.TokenProvider}: simple and JWT).
 *
 * <p>The store changes only on the apply path (deterministically, on every member alike); any
 * thread may read it. It knows nothing of gRPC, Raft or the server: the API layer finds the
 * caller, the applier chain checks requests against the store.
 */
package io.etcdj.server.auth;
