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
import io.etcdj.api.etcdserverpb.MemberAddResponse;
import io.etcdj.api.etcdserverpb.MemberListResponse;
import io.etcdj.api.etcdserverpb.MemberPromoteResponse;
import io.etcdj.api.etcdserverpb.MemberRemoveResponse;
import io.etcdj.api.etcdserverpb.MemberUpdateResponse;
import io.etcdj.api.etcdserverpb.PutResponse;
import io.etcdj.api.etcdserverpb.RangeResponse;
import io.etcdj.api.etcdserverpb.ResponseOp;
import io.etcdj.api.etcdserverpb.TxnResponse;
import io.etcdj.api.etcdserverpb.WatchResponse;
import io.etcdj.api.mvccpb.Event;
import io.etcdj.api.mvccpb.KeyValue;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/** etcdctl's default {@code simple} format: keys and values on their own lines, one sentence per action. */
public class SimplePrinter implements Printer {

    protected final Out out;
    private final PrintStream err;
    private final boolean hex;
    private final boolean valueOnly;

    public SimplePrinter(Out out, PrintStream err, boolean hex, boolean valueOnly) {
        this.out = out;
        this.err = err;
        this.hex = hex;
        this.valueOnly = valueOnly;
    }

    private void bytesLine(ByteString b) {
        if (hex) {
            out.println(Bytes.hex(b));
        } else {
            out.raw(b);
            out.println();
        }
    }

    private void kv(KeyValue kv, boolean onlyValue) {
        if (!onlyValue) {
            bytesLine(kv.getKey());
        }
        bytesLine(kv.getValue());
    }

    @Override
    public void get(RangeResponse r) {
        for (KeyValue kv : r.getKvsList()) {
            kv(kv, valueOnly);
        }
    }

    @Override
    public void put(PutResponse r) {
        out.println("OK");
        if (r.hasPrevKv()) {
            kv(r.getPrevKv(), false);
        }
    }

    @Override
    public void del(DeleteRangeResponse r) {
        out.println(Long.toString(r.getDeleted()));
        for (KeyValue kv : r.getPrevKvsList()) {
            kv(kv, false);
        }
    }

    @Override
    public void txn(TxnResponse r) {
        out.println(r.getSucceeded() ? "SUCCESS" : "FAILURE");
        for (ResponseOp op : r.getResponsesList()) {
            out.println();
            switch (op.getResponseCase()) {
                case RESPONSE_PUT -> put(op.getResponsePut());
                case RESPONSE_DELETE_RANGE -> del(op.getResponseDeleteRange());
                case RESPONSE_RANGE -> {
                    for (KeyValue kv : op.getResponseRange().getKvsList()) {
                        kv(kv, false);
                    }
                }
                case RESPONSE_TXN -> txn(op.getResponseTxn());
                default -> { }
            }
        }
    }

    @Override
    public void watch(WatchResponse r) {
        for (Event ev : r.getEventsList()) {
            out.println(ev.getType() == Event.EventType.DELETE ? "DELETE" : "PUT");
            if (ev.hasPrevKv()) {
                kv(ev.getPrevKv(), false);
            }
            kv(ev.getKv(), false);
        }
    }

    @Override
    public void grant(LeaseGrantResponse r) {
        out.println(String.format("lease %016x granted with TTL(%ds)", r.getID(), r.getTTL()));
    }

    @Override
    public void revoke(long id, LeaseRevokeResponse r) {
        out.println(String.format("lease %016x revoked", id));
    }

    @Override
    public void keepAlive(LeaseKeepAliveResponse r) {
        out.println(String.format("lease %016x keepalived with TTL(%d)", r.getID(), r.getTTL()));
    }

    @Override
    public void timeToLive(LeaseTimeToLiveResponse r, boolean keys) {
        if (r.getGrantedTTL() == 0 && r.getTTL() == -1) {
            out.println(String.format("lease %016x already expired", r.getID()));
            return;
        }
        StringBuilder s = new StringBuilder(String.format("lease %016x granted with TTL(%ds), remaining(%ds)",
                r.getID(), r.getGrantedTTL(), r.getTTL()));
        if (keys) {
            List<String> names = new ArrayList<>();
            for (ByteString k : r.getKeysList()) {
                names.add(Bytes.text(k));
            }
            s.append(", attached keys([").append(String.join(" ", names)).append("])");
        }
        out.println(s.toString());
    }

    @Override
    public void leases(LeaseLeasesResponse r) {
        out.println(String.format("found %d leases", r.getLeasesCount()));
        for (LeaseStatus l : r.getLeasesList()) {
            out.println(String.format("%016x", l.getID()));
        }
    }

    @Override
    public void memberAdd(MemberAddResponse r) {
        out.println(String.format("Member %16x added to cluster %16x", r.getMember().getID(),
                r.getHeader().getClusterId()));
    }

    @Override
    public void memberRemove(long id, MemberRemoveResponse r) {
        out.println(String.format("Member %16x removed from cluster %16x", id, r.getHeader().getClusterId()));
    }

    @Override
    public void memberUpdate(long id, MemberUpdateResponse r) {
        out.println(String.format("Member %16x updated in cluster %16x", id, r.getHeader().getClusterId()));
    }

    @Override
    public void memberPromote(long id, MemberPromoteResponse r) {
        out.println(String.format("Member %16x promoted in cluster %16x", id, r.getHeader().getClusterId()));
    }

    @Override
    public void memberList(MemberListResponse r) {
        for (List<String> row : MemberRows.rows(r)) {
            out.println(String.join(", ", row));
        }
    }

    @Override
    public void endpointHealth(List<EndpointHealth> r) {
        for (EndpointHealth h : r) {
            if (h.error().isEmpty()) {
                err.println(String.format("%s is healthy: successfully committed proposal: took = %s",
                        h.endpoint(), h.took()));
            } else {
                err.println(String.format("%s is unhealthy: failed to commit proposal: %s", h.endpoint(), h.error()));
            }
        }
    }

    @Override
    public void endpointStatus(List<EndpointStatus> r) {
        for (List<String> row : StatusRows.rows(r)) {
            out.println(String.join(", ", row));
        }
    }

    @Override
    public void endpointHashKV(List<EndpointHashKV> r) {
        for (EndpointHashKV h : r) {
            out.println(h.endpoint() + ", " + Integer.toUnsignedString(h.hashKV().getHash()));
        }
    }

    @Override
    public void alarm(AlarmResponse r) {
        for (AlarmMember a : r.getAlarmsList()) {
            out.println(String.format("memberID:%s alarm:%s ", Long.toUnsignedString(a.getMemberID()),
                    a.getAlarm().name()));
        }
    }

    @Override
    public void authMessage(Message r, String simpleText) {
        out.println(simpleText);
    }

    @Override
    public void authStatus(AuthStatusResponse r) {
        out.println("Authentication Status: " + r.getEnabled());
        out.println("AuthRevision: " + Long.toUnsignedString(r.getAuthRevision()));
    }

    @Override
    public void roleGet(String role, AuthRoleGetResponse r) {
        out.println("Role " + role);
        out.println("KV Read:");
        for (Permission p : r.getPermList()) {
            if (p.getPermType() == Permission.Type.READ || p.getPermType() == Permission.Type.READWRITE) {
                permission(p);
            }
        }
        out.println("KV Write:");
        for (Permission p : r.getPermList()) {
            if (p.getPermType() == Permission.Type.WRITE || p.getPermType() == Permission.Type.READWRITE) {
                permission(p);
            }
        }
    }

    private void permission(Permission p) {
        String key = Bytes.text(p.getKey());
        if (p.getRangeEnd().isEmpty()) {
            out.println("\t" + key);
        } else if (p.getRangeEnd().size() == 1 && p.getRangeEnd().byteAt(0) == 0) {
            out.println("\t[" + key + ", <open ended>");
        } else {
            String s = "\t[" + key + ", " + Bytes.text(p.getRangeEnd()) + ")";
            if (p.getRangeEnd().equals(KeyRanges.prefixEnd(p.getKey()))) {
                s += " (prefix " + key + ")";
            }
            out.println(s);
        }
    }

    @Override
    public void roleList(AuthRoleListResponse r) {
        for (String role : r.getRolesList()) {
            out.println(role);
        }
    }

    @Override
    public void userGet(String user, AuthUserGetResponse r) {
        out.println("User: " + user);
        StringBuilder s = new StringBuilder("Roles:");
        for (String role : r.getRolesList()) {
            s.append(' ').append(role);
        }
        out.println(s.toString());
    }

    @Override
    public void userList(AuthUserListResponse r) {
        for (String u : r.getUsersList()) {
            out.println(u);
        }
    }
}
