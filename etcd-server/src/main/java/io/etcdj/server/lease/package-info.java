/**
 * Leases: grant, revoke, keep-alive, time-to-live and expiry on the leader. Owns the backend's
 * lease bucket; deleting a revoked lease's keys is the apply layer's job (through the MVCC
 * store), so this package does not depend on mvcc.
 */
package io.etcdj.server.lease;
