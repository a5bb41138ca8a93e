package io.etcdj.ctl.printer;

import com.google.protobuf.Message;
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
import io.etcdj.api.etcdserverpb.LeaseTimeToLiveResponse;
import io.etcdj.api.etcdserverpb.MemberAddResponse;
import io.etcdj.api.etcdserverpb.MemberListResponse;
import io.etcdj.api.etcdserverpb.MemberPromoteResponse;
import io.etcdj.api.etcdserverpb.MemberRemoveResponse;
import io.etcdj.api.etcdserverpb.MemberUpdateResponse;
import io.etcdj.api.etcdserverpb.PutResponse;
import io.etcdj.api.etcdserverpb.RangeResponse;
import io.etcdj.api.etcdserverpb.TxnResponse;
import io.etcdj.api.etcdserverpb.WatchResponse;
import io.etcdj.cli.CliException;
import java.util.List;

/**
 * Base for formats that support only some responses: everything not overridden is refused with
 * etcdctl's "&lt;format&gt; not supported as output format" error (exit 4).
 */
public abstract class UnsupportedPrinter implements Printer {

    private final String format;

    protected UnsupportedPrinter(String format) {
        this.format = format;
    }

    @Override
    public void get(RangeResponse r) {
        throw CliException.unsupportedFormat(format);
    }

    @Override
    public void put(PutResponse r) {
        throw CliException.unsupportedFormat(format);
    }

    @Override
    public void del(DeleteRangeResponse r) {
        throw CliException.unsupportedFormat(format);
    }

    @Override
    public void txn(TxnResponse r) {
        throw CliException.unsupportedFormat(format);
    }

    @Override
    public void watch(WatchResponse r) {
        throw CliException.unsupportedFormat(format);
    }

    @Override
    public void grant(LeaseGrantResponse r) {
        throw CliException.unsupportedFormat(format);
    }

    @Override
    public void revoke(long id, LeaseRevokeResponse r) {
        throw CliException.unsupportedFormat(format);
    }

    @Override
    public void keepAlive(LeaseKeepAliveResponse r) {
        throw CliException.unsupportedFormat(format);
    }

    @Override
    public void timeToLive(LeaseTimeToLiveResponse r, boolean keys) {
        throw CliException.unsupportedFormat(format);
    }

    @Override
    public void leases(LeaseLeasesResponse r) {
        throw CliException.unsupportedFormat(format);
    }

    @Override
    public void memberAdd(MemberAddResponse r) {
        throw CliException.unsupportedFormat(format);
    }

    @Override
    public void memberRemove(long id, MemberRemoveResponse r) {
        throw CliException.unsupportedFormat(format);
    }

    @Override
    public void memberUpdate(long id, MemberUpdateResponse r) {
        throw CliException.unsupportedFormat(format);
    }

    @Override
    public void memberPromote(long id, MemberPromoteResponse r) {
        throw CliException.unsupportedFormat(format);
    }

    @Override
    public void memberList(MemberListResponse r) {
        throw CliException.unsupportedFormat(format);
    }

    @Override
    public void endpointHealth(List<EndpointHealth> r) {
        throw CliException.unsupportedFormat(format);
    }

    @Override
    public void endpointStatus(List<EndpointStatus> r) {
        throw CliException.unsupportedFormat(format);
    }

    @Override
    public void endpointHashKV(List<EndpointHashKV> r) {
        throw CliException.unsupportedFormat(format);
    }

    @Override
    public void alarm(AlarmResponse r) {
        throw CliException.unsupportedFormat(format);
    }

    @Override
    public void authMessage(Message r, String simpleText) {
        throw CliException.unsupportedFormat(format);
    }

    @Override
    public void authStatus(AuthStatusResponse r) {
        throw CliException.unsupportedFormat(format);
    }

    @Override
    public void roleGet(String role, AuthRoleGetResponse r) {
        throw CliException.unsupportedFormat(format);
    }

    @Override
    public void roleList(AuthRoleListResponse r) {
        throw CliException.unsupportedFormat(format);
    }

    @Override
    public void userGet(String user, AuthUserGetResponse r) {
        throw CliException.unsupportedFormat(format);
    }

    @Override
    public void userList(AuthUserListResponse r) {
        throw CliException.unsupportedFormat(format);
    }
}
