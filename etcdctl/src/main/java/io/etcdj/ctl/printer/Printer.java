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
import java.util.List;

/** One method per response etcdctl prints; implementations write one output format. */
public interface Printer {

    void get(RangeResponse r);

    void put(PutResponse r);

    void del(DeleteRangeResponse r);

    void txn(TxnResponse r);

    void watch(WatchResponse r);

    void grant(LeaseGrantResponse r);

    void revoke(long id, LeaseRevokeResponse r);

    void keepAlive(LeaseKeepAliveResponse r);

    void timeToLive(LeaseTimeToLiveResponse r, boolean keys);

    void leases(LeaseLeasesResponse r);

    void memberAdd(MemberAddResponse r);

    void memberRemove(long id, MemberRemoveResponse r);

    void memberUpdate(long id, MemberUpdateResponse r);

    void memberPromote(long id, MemberPromoteResponse r);

    void memberList(MemberListResponse r);

    void endpointHealth(List<EndpointHealth> r);

    void endpointStatus(List<EndpointStatus> r);

    void endpointHashKV(List<EndpointHashKV> r);

    void alarm(AlarmResponse r);

    /** Auth responses whose simple form is one fixed sentence, e.g. "Role r created". */
    void authMessage(Message r, String simpleText);

    /** {@code auth status} (etcdctl 3.5). */
    void authStatus(AuthStatusResponse r);

    void roleGet(String role, AuthRoleGetResponse r);

    void roleList(AuthRoleListResponse r);

    void userGet(String user, AuthUserGetResponse r);

    void userList(AuthUserListResponse r);
}
