package io.etcdj.server.datadir;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import io.etcdj.api.etcdserverpb.AlarmRequest;
import io.etcdj.api.etcdserverpb.AuthDisableRequest;
import io.etcdj.api.etcdserverpb.AuthEnableRequest;
import io.etcdj.api.etcdserverpb.AuthRoleAddRequest;
import io.etcdj.api.etcdserverpb.AuthRoleDeleteRequest;
import io.etcdj.api.etcdserverpb.AuthRoleGrantPermissionRequest;
import io.etcdj.api.etcdserverpb.AuthRoleRevokePermissionRequest;
import io.etcdj.api.etcdserverpb.AuthUserAddRequest;
import io.etcdj.api.etcdserverpb.AuthUserChangePasswordRequest;
import io.etcdj.api.etcdserverpb.AuthUserDeleteRequest;
import io.etcdj.api.etcdserverpb.AuthUserGrantRoleRequest;
import io.etcdj.api.etcdserverpb.AuthUserRevokeRoleRequest;
import io.etcdj.api.etcdserverpb.CompactionRequest;
import io.etcdj.api.etcdserverpb.DeleteRangeRequest;
import io.etcdj.api.etcdserverpb.LeaseCheckpointRequest;
import io.etcdj.api.etcdserverpb.LeaseGrantRequest;
import io.etcdj.api.etcdserverpb.LeaseRevokeRequest;
import io.etcdj.api.etcdserverpb.Member;
import io.etcdj.api.etcdserverpb.PutRequest;
import io.etcdj.api.etcdserverpb.TxnRequest;
import io.etcdj.raftpb.ConfChange;
import io.etcdj.raftpb.Entry;
import io.etcdj.raftpb.EntryType;
import io.etcdj.server.auth.Passwords;
import io.etcdj.serverpb.InternalRaftRequest;
import io.etcdj.serverpb.MemberAttributes;
import io.etcdj.serverpb.RequestHeader;
import java.io.IOException;
import java.util.Set;

/**
 * etcd 3.4's Raft entries in our encoding. A conf change carries its member as JSON in etcd and
 * as our {@code Member} message here. A normal entry is etcd's {@code InternalRaftRequest}, whose
 * requests are the same etcdserverpb messages as ours under other field numbers, or a v2 store
 * request ({@code etcdserverpb.Request}, which etcd 3.4 still writes for a member's published
 * attributes): the attributes become our publish request, every other v2 request an empty entry
 * (the v2 store is not served here), and requests that change nothing (reads, logins: tokens do
 * not survive a restart) empty entries too. What this cannot carry is refused by name.
 *
 * <p>etcd 3.4 records in its backend the index of the last key-value write only, so entries
 * after it (auth changes, lease grants, conf changes) may already be applied: replaying them
 * here does what replaying them in etcd does (an add of what exists fails, a set sets again).
 */
final class EtcdEntries {
    /** etcd's InternalRaftRequest field numbers of requests that change no state. */
    private static final Set<Integer> READ_ONLY = Set.of(3, 1012, 1102, 1106, 1107, 1202);
    private static final int HEADER = 100;
    private static final int V2 = 2;
    private static final String MEMBERS_PREFIX = "/0/members/";
    private static final String ATTRIBUTES_SUFFIX = "/attributes";

    private EtcdEntries() {
    }

    /** A conf change's member (JSON in etcd) as ours; null when the change carries none (a removal). */
    static Member confChangeMember(ConfChange cc) throws DataDirException {
        return cc.getContext().isEmpty() ? null : EtcdMembers.member(cc.getContext().toByteArray());
    }

    static ConfChange confChange(Entry e) throws DataDirException {
        try {
            return ConfChange.parseFrom(e.getData());
        } catch (InvalidProtocolBufferException ex) {
            throw new DataDirException("etcd WAL entry " + e.getIndex() + ": unreadable conf change");
        }
    }

    /** The entry in our encoding, same index and term. */
    static Entry convert(Entry e) throws DataDirException {
        if (e.getType() == EntryType.EntryConfChange) {
            ConfChange cc = confChange(e);
            Member m = confChangeMember(cc);
            ConfChange ours = m == null ? cc : cc.toBuilder().setContext(m.toByteString()).build();
            return e.toBuilder().setData(ours.toByteString()).build();
        }
        if (e.getData().isEmpty()) {
            return e;
        }
        InternalRaftRequest ours = request(e);
        return e.toBuilder().setData(ours == null ? ByteString.EMPTY : ours.toByteString()).build();
    }

    /** The published attributes of a normal entry, if it is etcd 3.4's v2 publish; null otherwise. */
    static MemberAttributes publishedAttributes(Entry e) throws DataDirException {
        if (e.getType() != EntryType.EntryNormal || e.getData().isEmpty()) {
            return null;
        }
        Framed f = Framed.of(e);
        InternalRaftRequest r = f.v2() == null ? null : v2(e, f.v2());
        return r != null && r.hasPublish() ? r.getPublish() : null;
    }

    /**
     * A normal entry's request, unwrapped as etcd tells the two kinds apart: an InternalRaftRequest
     * (its one request's field number and bytes, and its header), or, when the data is not one or
     * holds the v2 field, a v2 request ({@code v2} set).
     */
    private record Framed(int request, byte[] body, RequestHeader header, byte[] v2) {
        static Framed of(Entry e) {
            byte[] data = e.getData().toByteArray();
            int request = 0;
            int requests = 0;
            byte[] body = null;
            RequestHeader header = null;
            try {
                CodedInputStream in = CodedInputStream.newInstance(data);
                for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
                    int field = tag >>> 3;
                    int wire = tag & 7;
                    if (field == 1 && wire == 0) {
                        in.readUInt64();
                    } else if (field == HEADER && wire == 2) {
                        header = parseHeader(in.readByteArray());
                    } else if (wire == 2 && (field <= 11 || field >= 1000)) {
                        request = field;
                        requests++;
                        body = in.readByteArray();
                    } else {
                        return new Framed(0, null, null, data);
                    }
                }
            } catch (IOException ex) {
                // not an InternalRaftRequest: etcd itself falls back to a bare v2 request then
                return new Framed(0, null, null, data);
            }
            if (requests > 1) {
                // a oneof holds one request: several length-delimited fields are a bare v2 request's strings
                return new Framed(0, null, null, data);
            }
            return request == V2 ? new Framed(0, null, null, body) : new Framed(request, body, header, null);
        }
    }

    /** Our request for etcd's, or null when it has no effect here. */
    private static InternalRaftRequest request(Entry e) throws DataDirException {
        Framed f = Framed.of(e);
        if (f.v2() != null) {
            return v2(e, f.v2());
        }
        int request = f.request();
        byte[] body = f.body();
        InternalRaftRequest.Builder ours = InternalRaftRequest.newBuilder();
        if (f.header() != null) {
            ours.setHeader(f.header());
        }
        if (request == 0 || READ_ONLY.contains(request)) {
            return null;
        }
        try {
            switch (request) {
                case 4 -> ours.setPut(PutRequest.parseFrom(body));
                case 5 -> ours.setDeleteRange(DeleteRangeRequest.parseFrom(body));
                case 6 -> ours.setTxn(TxnRequest.parseFrom(body));
                case 7 -> ours.setCompaction(CompactionRequest.parseFrom(body));
                case 8 -> ours.setLeaseGrant(LeaseGrantRequest.parseFrom(body));
                case 9 -> ours.setLeaseRevoke(LeaseRevokeRequest.parseFrom(body));
                case 10 -> ours.setAlarm(AlarmRequest.parseFrom(body));
                case 11 -> ours.setLeaseCheckpoint(LeaseCheckpointRequest.parseFrom(body));
                case 1000 -> ours.setAuthEnable(AuthEnableRequest.parseFrom(body));
                case 1011 -> ours.setAuthDisable(AuthDisableRequest.parseFrom(body));
                case 1100 -> ours.setUserAdd(hashed(AuthUserAddRequest.parseFrom(body)));
                case 1103 -> ours.setUserChangePassword(hashed(AuthUserChangePasswordRequest.parseFrom(body)));
                case 1101 -> ours.setUserDelete(AuthUserDeleteRequest.parseFrom(body));
                case 1104 -> ours.setUserGrantRole(AuthUserGrantRoleRequest.parseFrom(body));
                case 1105 -> ours.setUserRevokeRole(AuthUserRevokeRoleRequest.parseFrom(body));
                case 1200 -> ours.setRoleAdd(AuthRoleAddRequest.parseFrom(body));
                case 1201 -> ours.setRoleDelete(AuthRoleDeleteRequest.parseFrom(body));
                case 1203 -> ours.setRoleGrantPermission(AuthRoleGrantPermissionRequest.parseFrom(body));
                case 1204 -> ours.setRoleRevokePermission(AuthRoleRevokePermissionRequest.parseFrom(body));
                default -> throw new DataDirException("etcd WAL entry " + e.getIndex() + " comes after what "
                        + "member/snap/db records as applied and carries a request this server does not know "
                        + "(InternalRaftRequest field " + request + "): not migrated");
            }
        } catch (InvalidProtocolBufferException ex) {
            throw new DataDirException("etcd WAL entry " + e.getIndex() + ": unreadable request (InternalRaftRequest field "
                    + request + ")");
        }
        return ours.build();
    }

    /**
     * etcd 3.4 logs a new password in clear and hashes it when applying; ours logs the hash (the
     * member that takes the request hashes it), so the migration hashes it, at etcd's default cost.
     */
    private static AuthUserAddRequest hashed(AuthUserAddRequest r) {
        if (r.getPassword().isEmpty() || (r.hasOptions() && r.getOptions().getNoPassword())) {
            return r.toBuilder().clearPassword().build();
        }
        return r.toBuilder().clearPassword().setHashedPassword(Passwords.hash(r.getPassword(), Passwords.DEFAULT_COST)).build();
    }

    private static AuthUserChangePasswordRequest hashed(AuthUserChangePasswordRequest r) {
        return r.getPassword().isEmpty() ? r
                : r.toBuilder().clearPassword().setHashedPassword(Passwords.hash(r.getPassword(), Passwords.DEFAULT_COST)).build();
    }

    /** etcd's RequestHeader: ID = 1, username = 2, auth_revision = 3. */
    private static RequestHeader parseHeader(byte[] b) throws IOException {
        RequestHeader.Builder h = RequestHeader.newBuilder();
        CodedInputStream in = CodedInputStream.newInstance(b);
        for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
            switch (tag) {
                case 18 -> h.setUsername(in.readString());
                case 24 -> h.setAuthRevision(in.readUInt64());
                default -> in.skipField(tag);
            }
        }
        return h.build();
    }

    /** A v2 request (etcdserverpb.Request: Method = 2, Path = 3, Val = 4): a member's attributes, or nothing. */
    private static InternalRaftRequest v2(Entry e, byte[] data) throws DataDirException {
        String method = "";
        String path = "";
        byte[] val = new byte[0];
        try {
            CodedInputStream in = CodedInputStream.newInstance(data);
            for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
                switch (tag) {
                    case 18 -> method = in.readString();
                    case 26 -> path = in.readString();
                    case 34 -> val = in.readByteArray();
                    default -> in.skipField(tag);
                }
            }
        } catch (IOException ex) {
            throw new DataDirException("etcd WAL entry " + e.getIndex() + ": neither an etcd request nor a v2 request");
        }
        if (!"PUT".equals(method) || !path.startsWith(MEMBERS_PREFIX) || !path.endsWith(ATTRIBUTES_SUFFIX)) {
            return null;
        }
        long id = EtcdMembers.hexId(path.substring(MEMBERS_PREFIX.length(), path.length() - ATTRIBUTES_SUFFIX.length()));
        EtcdMembers.Attributes a = EtcdMembers.attributes(val);
        return InternalRaftRequest.newBuilder().setPublish(MemberAttributes.newBuilder().setMemberId(id)
                .setName(a.name()).addAllClientUrls(a.clientUrls())).build();
    }

}
