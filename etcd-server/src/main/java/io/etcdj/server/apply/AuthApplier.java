package io.etcdj.server.apply;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.Compare;
import io.etcdj.api.etcdserverpb.DeleteRangeRequest;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.api.etcdserverpb.RequestOp;
import io.etcdj.api.etcdserverpb.TxnRequest;
import io.etcdj.server.auth.AuthException;
import io.etcdj.server.auth.AuthInfo;
import io.etcdj.server.auth.AuthStore;
import io.etcdj.server.lease.Lease;
import io.etcdj.server.lease.Lessor;
import io.etcdj.server.mvcc.WriteBatch;
import io.etcdj.serverpb.InternalRaftRequest;
import io.etcdj.serverpb.RequestHeader;

/**
 * etcd's auth stage: checks a client's request against the auth store as it is when the request
 * is applied (the same on every member), so a permission revoked after the request was sent
 * still stops it. Requests the member makes itself carry no header and are never refused.
 *
 * <p>As etcd: writes need write permission on every key they can touch, {@code prev_kv} and a
 * transaction's comparisons and reads need read permission, a lease may be revoked (or given to a
 * key) only by a user who may write every key attached to it, user/role management and the auth
 * switch need the root role; compaction and lease grants need only a valid user.
 */
final class AuthApplier implements RequestApplier {
    private final AuthStore auth;
    private final Lessor lessor;
    private final RequestApplier next;

    AuthApplier(AuthStore auth, Lessor lessor, RequestApplier next) {
        this.auth = auth;
        this.lessor = lessor;
        this.next = next;
    }

    @Override
    public ApplyResult apply(InternalRaftRequest r, WriteBatch batch) {
        if (r.hasHeader() && auth.enabled()) {
            RequestHeader h = r.getHeader();
            AuthInfo ai = new AuthInfo(h.getUsername(), h.getAuthRevision());
            try {
                check(ai, r);
            } catch (AuthException e) {
                return ApplyResult.failed(e.error().etcdError().exception());
            }
        }
        return next.apply(r, batch);
    }

    private void check(AuthInfo ai, InternalRaftRequest r) {
        switch (r.getRequestCase()) {
            case PUT -> checkPut(ai, r.getPut());
            case DELETE_RANGE -> checkDelete(ai, r.getDeleteRange());
            case TXN -> checkTxn(ai, r.getTxn());
            case LEASE_REVOKE -> checkLeaseKeys(ai, r.getLeaseRevoke().getID());
            case AUTH_ENABLE, AUTH_DISABLE, USER_ADD, USER_DELETE, USER_CHANGE_PASSWORD, USER_GRANT_ROLE,
                    USER_REVOKE_ROLE, ROLE_ADD, ROLE_GRANT_PERMISSION, ROLE_REVOKE_PERMISSION, ROLE_DELETE,
                    DOWNGRADE_INFO_SET -> auth.checkAdmin(ai);
            default -> {
            }
        }
    }

    private void checkPut(AuthInfo ai, PutRequest p) {
        auth.checkWrite(ai, p.getKey().toByteArray(), null);
        if (p.getLease() != 0) {
            checkLeaseKeys(ai, p.getLease());
        }
        if (p.getPrevKv()) {
            auth.checkRead(ai, p.getKey().toByteArray(), null);
        }
    }

    private void checkDelete(AuthInfo ai, DeleteRangeRequest d) {
        if (d.getPrevKv()) {
            auth.checkRead(ai, d.getKey().toByteArray(), d.getRangeEnd().toByteArray());
        }
        auth.checkWrite(ai, d.getKey().toByteArray(), d.getRangeEnd().toByteArray());
    }

    private void checkTxn(AuthInfo ai, TxnRequest t) {
        for (Compare c : t.getCompareList()) {
            auth.checkRead(ai, c.getKey().toByteArray(), c.getRangeEnd().toByteArray());
        }
        for (RequestOp op : t.getSuccessList()) {
            checkOp(ai, op);
        }
        for (RequestOp op : t.getFailureList()) {
            checkOp(ai, op);
        }
    }

    private void checkOp(AuthInfo ai, RequestOp op) {
        switch (op.getRequestCase()) {
            case REQUEST_RANGE -> auth.checkRead(ai, op.getRequestRange().getKey().toByteArray(),
                    op.getRequestRange().getRangeEnd().toByteArray());
            case REQUEST_PUT -> checkPut(ai, op.getRequestPut());
            case REQUEST_DELETE_RANGE -> checkDelete(ai, op.getRequestDeleteRange());
            case REQUEST_TXN -> checkTxn(ai, op.getRequestTxn());
            default -> {
            }
        }
    }

    private void checkLeaseKeys(AuthInfo ai, long leaseId) {
        Lease lease = lessor.lookup(leaseId);
        if (lease == null) {
            return;
        }
        for (ByteString key : lease.keys()) {
            auth.checkWrite(ai, key.toByteArray(), null);
        }
    }
}
