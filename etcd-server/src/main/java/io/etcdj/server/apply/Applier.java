package io.etcdj.server.apply;

import com.google.protobuf.ByteString;
import com.google.protobuf.Message;
import io.etcdj.api.etcdserverpb.AlarmMember;
import io.etcdj.api.etcdserverpb.AlarmRequest;
import io.etcdj.api.etcdserverpb.AlarmResponse;
import io.etcdj.api.etcdserverpb.CompactionResponse;
import io.etcdj.api.etcdserverpb.DeleteRangeRequest;
import io.etcdj.api.etcdserverpb.DeleteRangeResponse;
import io.etcdj.api.etcdserverpb.LeaseCheckpoint;
import io.etcdj.api.etcdserverpb.LeaseCheckpointResponse;
import io.etcdj.api.etcdserverpb.LeaseGrantRequest;
import io.etcdj.api.etcdserverpb.LeaseGrantResponse;
import io.etcdj.api.etcdserverpb.LeaseRevokeResponse;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.api.etcdserverpb.PutResponse;
import io.etcdj.api.mvccpb.KeyValue;
import io.etcdj.server.auth.AuthStore;
import io.etcdj.server.error.EtcdError;
import io.etcdj.server.error.EtcdException;
import io.etcdj.server.lease.Lease;
import io.etcdj.server.lease.Lessor;
import io.etcdj.server.membership.Membership;
import io.etcdj.server.mvcc.TxnWrite;
import io.etcdj.server.mvcc.WriteBatch;
import io.etcdj.serverpb.InternalRaftRequest;
import io.etcdj.serverpb.MemberAttributes;
import java.util.List;

/**
 * The backend stage of the applier chain: applies committed requests to the state machines, in
 * Raft order, deterministically: the same entries give the same state and the same responses on
 * every member.
 */
public final class Applier implements RequestApplier {
    private final Lessor lessor;
    private final Membership membership;
    private final AlarmStore alarms;
    private final TxnApplier txns;
    private final AuthMutations auth;
    private final DowngradeStore downgrade;

    public Applier(Lessor lessor, Membership membership, AlarmStore alarms, AuthStore auth, DowngradeStore downgrade) {
        this.downgrade = downgrade;
        this.lessor = lessor;
        this.membership = membership;
        this.alarms = alarms;
        this.txns = new TxnApplier(this);
        this.auth = new AuthMutations(auth);
    }

    @Override
    public ApplyResult apply(InternalRaftRequest r, WriteBatch batch) {
        try {
            return switch (r.getRequestCase()) {
                case PUT -> inTxn(batch, t -> put(t, r.getPut()));
                case DELETE_RANGE -> inTxn(batch, t -> deleteRange(t, r.getDeleteRange()));
                case TXN -> txns.apply(batch, r.getTxn());
                case COMPACTION -> {
                    batch.compact(r.getCompaction().getRevision());
                    yield ApplyResult.ok(CompactionResponse.getDefaultInstance(), batch.revision());
                }
                case LEASE_GRANT -> leaseGrant(batch, r.getLeaseGrant());
                case LEASE_REVOKE -> leaseRevoke(batch, r.getLeaseRevoke().getID());
                case LEASE_CHECKPOINT -> {
                    for (LeaseCheckpoint cp : r.getLeaseCheckpoint().getCheckpointsList()) {
                        lessor.checkpoint(batch.backendTx(), cp.getID(), cp.getRemainingTTL());
                    }
                    yield ApplyResult.ok(LeaseCheckpointResponse.getDefaultInstance(), batch.revision());
                }
                case ALARM -> alarm(batch, r.getAlarm());
                case PUBLISH -> {
                    MemberAttributes a = r.getPublish();
                    membership.updateAttributes(batch.backendTx(), a.getMemberId(), a.getName(), a.getClientUrlsList());
                    yield ApplyResult.ok(null, batch.revision());
                }
                case AUTH_ENABLE, AUTH_DISABLE, AUTHENTICATE, USER_ADD, USER_DELETE, USER_CHANGE_PASSWORD,
                        USER_GRANT_ROLE, USER_REVOKE_ROLE, ROLE_ADD, ROLE_GRANT_PERMISSION, ROLE_REVOKE_PERMISSION,
                        ROLE_DELETE -> auth.apply(r, batch);
                case DOWNGRADE_INFO_SET -> {
                    downgrade.set(batch.backendTx(), r.getDowngradeInfoSet().getEnabled(), r.getDowngradeInfoSet().getVer());
                    yield ApplyResult.ok(null, batch.revision());
                }
                case CLUSTER_VERSION, REQUEST_NOT_SET -> ApplyResult.ok(null, batch.revision());
            };
        } catch (EtcdException e) {
            return ApplyResult.failed(e);
        }
    }

    private interface TxnBody {
        Message run(TxnWrite txn);
    }

    private static ApplyResult inTxn(WriteBatch batch, TxnBody body) {
        TxnWrite txn = batch.beginTxn();
        Message resp = body.run(txn);
        txn.end();
        return ApplyResult.ok(resp, txn.readRevision());
    }

    /** Checks a put against the state before writing anything (a txn checks all its puts first). */
    void checkPut(TxnWrite txn, PutRequest p) {
        if (p.getIgnoreValue() || p.getIgnoreLease()) {
            if (txn.get(p.getKey().toByteArray()) == null) {
                throw EtcdError.KEY_NOT_FOUND.exception();
            }
        }
        if (!p.getIgnoreLease() && p.getLease() != 0 && !lessor.exists(p.getLease())) {
            throw EtcdError.LEASE_NOT_FOUND.exception();
        }
    }

    PutResponse put(TxnWrite txn, PutRequest p) {
        checkPut(txn, p);
        byte[] key = p.getKey().toByteArray();
        ByteString value = p.getValue();
        long lease = p.getLease();
        if (p.getIgnoreValue() || p.getIgnoreLease()) {
            KeyValue cur = txn.get(key);
            if (p.getIgnoreValue()) {
                value = cur.getValue();
            }
            if (p.getIgnoreLease()) {
                lease = cur.getLease();
            }
        }
        TxnWrite.Replaced prev = txn.put(key, value, lease, p.getPrevKv());
        if (prev.prevLease() != 0 && prev.prevLease() != lease) {
            lessor.detach(prev.prevLease(), p.getKey());
        }
        if (lease != 0) {
            lessor.attach(lease, p.getKey());
        }
        PutResponse.Builder b = PutResponse.newBuilder();
        if (prev.prevKv() != null) {
            b.setPrevKv(prev.prevKv());
        }
        return b.build();
    }

    DeleteRangeResponse deleteRange(TxnWrite txn, DeleteRangeRequest d) {
        byte[] end = d.getRangeEnd().isEmpty() ? null : d.getRangeEnd().toByteArray();
        List<KeyValue> deleted = txn.deleteRange(d.getKey().toByteArray(), end);
        for (KeyValue kv : deleted) {
            if (kv.getLease() != 0) {
                lessor.detach(kv.getLease(), kv.getKey());
            }
        }
        DeleteRangeResponse.Builder b = DeleteRangeResponse.newBuilder().setDeleted(deleted.size());
        if (d.getPrevKv()) {
            b.addAllPrevKvs(deleted);
        }
        return b.build();
    }

    private ApplyResult leaseGrant(WriteBatch batch, LeaseGrantRequest g) {
        Lease l = lessor.grant(batch.backendTx(), g.getID(), g.getTTL());
        return ApplyResult.ok(LeaseGrantResponse.newBuilder().setID(l.id()).setTTL(l.ttlSeconds()).build(),
                batch.revision());
    }

    private ApplyResult leaseRevoke(WriteBatch batch, long id) {
        Lease l = lessor.revoke(batch.backendTx(), id);
        TxnWrite txn = batch.beginTxn();
        for (ByteString key : l.keys()) {
            txn.deleteRange(key.toByteArray(), null);
        }
        txn.end();
        return ApplyResult.ok(LeaseRevokeResponse.getDefaultInstance(), txn.readRevision());
    }

    private ApplyResult alarm(WriteBatch batch, AlarmRequest a) {
        AlarmResponse.Builder b = AlarmResponse.newBuilder();
        AlarmMember m = switch (a.getAction()) {
            case ACTIVATE -> alarms.activate(batch.backendTx(), a.getMemberID(), a.getAlarm());
            case DEACTIVATE -> alarms.deactivate(batch.backendTx(), a.getMemberID(), a.getAlarm());
            default -> null;
        };
        if (m != null) {
            b.addAlarms(m);
        }
        return ApplyResult.ok(b.build(), batch.revision());
    }
}
