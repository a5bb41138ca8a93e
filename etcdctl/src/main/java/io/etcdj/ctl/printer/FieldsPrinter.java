package io.etcdj.ctl.printer;

import com.google.protobuf.ByteString;
import com.google.protobuf.Message;
import io.etcdj.api.authpb.Permission;
import io.etcdj.api.etcdserverpb.AlarmMember;
import io.etcdj.api.etcdserverpb.AlarmResponse;
import io.etcdj.api.etcdserverpb.AuthRoleGetResponse;
import io.etcdj.api.etcdserverpb.AuthRoleListResponse;
import io.etcdj.api.etcdserverpb.AuthStatusResponse;
import io.etcdj.api.etcdserverpb.AuthUserGetResponse;
import io.etcdj.api.etcdserverpb.AuthUserListResponse;
import io.etcdj.api.etcdserverpb.DeleteRangeResponse;
import io.etcdj.api.etcdserverpb.LeaseGrantResponse;
import io.etcdj.api.etcdserverpb.LeaseKeepAliveResponse;
import io.etcdj.api.etcdserverpb.LeaseLeasesResponse;
import io.etcdj.api.etcdserverpb.LeaseRevokeResponse;
import io.etcdj.api.etcdserverpb.LeaseStatus;
import io.etcdj.api.etcdserverpb.LeaseTimeToLiveResponse;
import io.etcdj.api.etcdserverpb.Member;
import io.etcdj.api.etcdserverpb.MemberAddResponse;
import io.etcdj.api.etcdserverpb.MemberListResponse;
import io.etcdj.api.etcdserverpb.MemberPromoteResponse;
import io.etcdj.api.etcdserverpb.MemberRemoveResponse;
import io.etcdj.api.etcdserverpb.MemberUpdateResponse;
import io.etcdj.api.etcdserverpb.PutResponse;
import io.etcdj.api.etcdserverpb.RangeResponse;
import io.etcdj.api.etcdserverpb.ResponseHeader;
import io.etcdj.api.etcdserverpb.ResponseOp;
import io.etcdj.api.etcdserverpb.StatusResponse;
import io.etcdj.api.etcdserverpb.TxnResponse;
import io.etcdj.api.etcdserverpb.WatchResponse;
import io.etcdj.api.mvccpb.Event;
import io.etcdj.api.mvccpb.KeyValue;
import io.etcdj.cli.CliException;
import io.etcdj.cli.GoQuote;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** {@code -w fields}: one {@code "Name" : value} line per field, strings and bytes Go-quoted. */
public final class FieldsPrinter implements Printer {

    private final Out out;

    public FieldsPrinter(Out out) {
        this.out = out;
    }

    private void line(String name, Object value) {
        out.println("\"" + name + "\" : " + value);
    }

    private static String q(ByteString b) {
        return GoQuote.quote(b.toByteArray());
    }

    private static String q(String s) {
        return GoQuote.quote(s.getBytes(StandardCharsets.UTF_8));
    }

    private void hdr(ResponseHeader h) {
        line("ClusterID", Long.toUnsignedString(h.getClusterId()));
        line("MemberID", Long.toUnsignedString(h.getMemberId()));
        line("Revision", h.getRevision());
        line("RaftTerm", Long.toUnsignedString(h.getRaftTerm()));
    }

    private void kv(String prefix, KeyValue kv) {
        line(prefix + "Key", q(kv.getKey()));
        line(prefix + "CreateRevision", kv.getCreateRevision());
        line(prefix + "ModRevision", kv.getModRevision());
        line(prefix + "Version", kv.getVersion());
        line(prefix + "Value", q(kv.getValue()));
        line(prefix + "Lease", kv.getLease());
    }

    @Override
    public void get(RangeResponse r) {
        hdr(r.getHeader());
        for (KeyValue kv : r.getKvsList()) {
            kv("", kv);
        }
        line("More", r.getMore());
        line("Count", r.getCount());
    }

    @Override
    public void put(PutResponse r) {
        hdr(r.getHeader());
        if (r.hasPrevKv()) {
            kv("Prev", r.getPrevKv());
        }
    }

    @Override
    public void del(DeleteRangeResponse r) {
        hdr(r.getHeader());
        line("Deleted", r.getDeleted());
        for (KeyValue kv : r.getPrevKvsList()) {
            kv("Prev", kv);
        }
    }

    @Override
    public void txn(TxnResponse r) {
        hdr(r.getHeader());
        line("Succeeded", r.getSucceeded());
        for (ResponseOp op : r.getResponsesList()) {
            switch (op.getResponseCase()) {
                case RESPONSE_PUT -> put(op.getResponsePut());
                case RESPONSE_DELETE_RANGE -> del(op.getResponseDeleteRange());
                case RESPONSE_RANGE -> get(op.getResponseRange());
                case RESPONSE_TXN -> txn(op.getResponseTxn());
                default -> { }
            }
        }
    }

    @Override
    public void watch(WatchResponse r) {
        hdr(r.getHeader());
        for (Event ev : r.getEventsList()) {
            line("Type", ev.getType() == Event.EventType.DELETE ? "DELETE" : "PUT");
            if (ev.hasPrevKv()) {
                kv("Prev", ev.getPrevKv());
            }
            kv("", ev.getKv());
        }
    }

    @Override
    public void grant(LeaseGrantResponse r) {
        hdr(r.getHeader());
        line("ID", r.getID());
        line("TTL", r.getTTL());
    }

    @Override
    public void revoke(long id, LeaseRevokeResponse r) {
        hdr(r.getHeader());
    }

    @Override
    public void keepAlive(LeaseKeepAliveResponse r) {
        hdr(r.getHeader());
        line("ID", r.getID());
        line("TTL", r.getTTL());
    }

    @Override
    public void timeToLive(LeaseTimeToLiveResponse r, boolean keys) {
        hdr(r.getHeader());
        line("ID", r.getID());
        line("TTL", r.getTTL());
        line("GrantedTTL", r.getGrantedTTL());
        for (ByteString k : r.getKeysList()) {
            line("Key", q(k));
        }
    }

    @Override
    public void leases(LeaseLeasesResponse r) {
        hdr(r.getHeader());
        for (LeaseStatus l : r.getLeasesList()) {
            line("ID", l.getID());
        }
    }

    @Override
    public void memberAdd(MemberAddResponse r) {
        throw CliException.unsupportedFormat("fields");
    }

    @Override
    public void memberRemove(long id, MemberRemoveResponse r) {
        throw CliException.unsupportedFormat("fields");
    }

    @Override
    public void memberUpdate(long id, MemberUpdateResponse r) {
        throw CliException.unsupportedFormat("fields");
    }

    @Override
    public void memberPromote(long id, MemberPromoteResponse r) {
        throw CliException.unsupportedFormat("fields");
    }

    @Override
    public void memberList(MemberListResponse r) {
        hdr(r.getHeader());
        for (Member m : r.getMembersList()) {
            line("ID", Long.toUnsignedString(m.getID()));
            line("Name", q(m.getName()));
            for (String u : m.getPeerURLsList()) {
                line("PeerURL", q(u));
            }
            for (String u : m.getClientURLsList()) {
                line("ClientURL", q(u));
            }
            line("IsLearner", m.getIsLearner());
            out.println();
        }
    }

    @Override
    public void endpointHealth(List<EndpointHealth> r) {
        for (EndpointHealth h : r) {
            line("Endpoint", q(h.endpoint()));
            line("Health", h.health());
            line("Took", h.took());
            line("Error", h.error());
            out.println();
        }
    }

    @Override
    public void endpointStatus(List<EndpointStatus> r) {
        for (EndpointStatus e : r) {
            StatusResponse s = e.status();
            hdr(s.getHeader());
            line("Version", q(s.getVersion()));
            line("DBSize", s.getDbSize());
            line("Leader", Long.toUnsignedString(s.getLeader()));
            line("IsLearner", s.getIsLearner());
            line("RaftIndex", Long.toUnsignedString(s.getRaftIndex()));
            line("RaftTerm", Long.toUnsignedString(s.getRaftTerm()));
            line("RaftAppliedIndex", Long.toUnsignedString(s.getRaftAppliedIndex()));
            line("Errors", "[" + String.join(" ", s.getErrorsList()) + "]");
            line("Endpoint", q(e.endpoint()));
            out.println();
        }
    }

    @Override
    public void endpointHashKV(List<EndpointHashKV> r) {
        for (EndpointHashKV h : r) {
            hdr(h.hashKV().getHeader());
            line("Endpoint", q(h.endpoint()));
            line("Hash", Integer.toUnsignedString(h.hashKV().getHash()));
            out.println();
        }
    }

    @Override
    public void alarm(AlarmResponse r) {
        hdr(r.getHeader());
        for (AlarmMember a : r.getAlarmsList()) {
            line("MemberID", Long.toUnsignedString(a.getMemberID()));
            line("AlarmType", a.getAlarm().name());
            out.println();
        }
    }

    @Override
    public void authMessage(Message r, String simpleText) {
        ResponseHeader h = (ResponseHeader) r.getField(r.getDescriptorForType().findFieldByName("header"));
        hdr(h);
    }

    @Override
    public void authStatus(AuthStatusResponse r) {
        hdr(r.getHeader());
        line("Enabled", r.getEnabled());
        line("AuthRevision", Long.toUnsignedString(r.getAuthRevision()));
    }

    @Override
    public void roleGet(String role, AuthRoleGetResponse r) {
        hdr(r.getHeader());
        for (Permission p : r.getPermList()) {
            out.println("\"PermType\" :  " + p.getPermType().name());
            line("Key", q(p.getKey()));
            line("RangeEnd", q(p.getRangeEnd()));
        }
    }

    @Override
    public void roleList(AuthRoleListResponse r) {
        hdr(r.getHeader());
        StringBuilder s = new StringBuilder("\"Roles\" :");
        for (String role : r.getRolesList()) {
            s.append(' ').append(q(role));
        }
        out.println(s.toString());
    }

    @Override
    public void userGet(String user, AuthUserGetResponse r) {
        throw CliException.unsupportedFormat("fields");
    }

    @Override
    public void userList(AuthUserListResponse r) {
        throw CliException.unsupportedFormat("fields");
    }
}
