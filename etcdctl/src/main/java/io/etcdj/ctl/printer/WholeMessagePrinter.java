package io.etcdj.ctl.printer;

import com.google.protobuf.Message;
import io.etcdj.api.etcdserverpb.AlarmResponse;
import io.etcdj.api.etcdserverpb.AuthRoleGetResponse;
import io.etcdj.api.etcdserverpb.AuthRoleListResponse;
import io.etcdj.api.etcdserverpb.AuthStatusResponse;
import io.etcdj.api.etcdserverpb.AuthUserGetResponse;
import io.etcdj.api.etcdserverpb.AuthUserListResponse;
import io.etcdj.api.etcdserverpb.DeleteRangeResponse;
import io.etcdj.api.etcdserverpb.LeaseRevokeResponse;
import io.etcdj.api.etcdserverpb.MemberAddResponse;
import io.etcdj.api.etcdserverpb.MemberListResponse;
import io.etcdj.api.etcdserverpb.MemberPromoteResponse;
import io.etcdj.api.etcdserverpb.MemberRemoveResponse;
import io.etcdj.api.etcdserverpb.MemberUpdateResponse;
import io.etcdj.api.etcdserverpb.PutResponse;
import io.etcdj.api.etcdserverpb.RangeResponse;
import io.etcdj.api.etcdserverpb.TxnResponse;

/**
 * Formats that print most responses as the whole message (json, protobuf): which responses are
 * printed whole is said once here; the formats differ only in how a message is written.
 */
abstract class WholeMessagePrinter extends UnsupportedPrinter {
    protected WholeMessagePrinter(String format) {
        super(format);
    }

    /** Writes one whole response message in this format. */
    protected abstract void printMessage(Message m);

    @Override
    public void get(RangeResponse r) {
        printMessage(r);
    }

    @Override
    public void put(PutResponse r) {
        printMessage(r);
    }

    @Override
    public void del(DeleteRangeResponse r) {
        printMessage(r);
    }

    @Override
    public void txn(TxnResponse r) {
        printMessage(r);
    }

    @Override
    public void revoke(long id, LeaseRevokeResponse r) {
        printMessage(r);
    }

    @Override
    public void memberAdd(MemberAddResponse r) {
        printMessage(r);
    }

    @Override
    public void memberRemove(long id, MemberRemoveResponse r) {
        printMessage(r);
    }

    @Override
    public void memberUpdate(long id, MemberUpdateResponse r) {
        printMessage(r);
    }

    @Override
    public void memberPromote(long id, MemberPromoteResponse r) {
        printMessage(r);
    }

    @Override
    public void memberList(MemberListResponse r) {
        printMessage(r);
    }

    @Override
    public void alarm(AlarmResponse r) {
        printMessage(r);
    }

    @Override
    public void authMessage(Message r, String simpleText) {
        printMessage(r);
    }

    @Override
    public void authStatus(AuthStatusResponse r) {
        printMessage(r);
    }

    @Override
    public void roleGet(String role, AuthRoleGetResponse r) {
        printMessage(r);
    }

    @Override
    public void roleList(AuthRoleListResponse r) {
        printMessage(r);
    }

    @Override
    public void userGet(String user, AuthUserGetResponse r) {
        printMessage(r);
    }

    @Override
    public void userList(AuthUserListResponse r) {
        printMessage(r);
    }
}
