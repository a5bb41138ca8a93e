package io.etcdj.ctl.command;

import io.etcdj.api.etcdserverpb.Member;
import io.etcdj.api.etcdserverpb.MemberListRequest;
import io.etcdj.api.etcdserverpb.MemberListResponse;
import io.etcdj.ctl.cli.CtlContext;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The endpoints a command acts on: the given ones (--endpoints as typed: etcdctl's endpoint commands
 * do not look at --discovery-srv then), or with --cluster every member's client URLs, asked of the
 * configured or discovered endpoints.
 */
final class ClusterEndpoints {

    private ClusterEndpoints() {
    }

    static List<String> resolve(CtlContext ctx, boolean cluster) {
        if (!cluster) {
            return ctx.options().endpoints();
        }
        MemberListResponse r = ctx.client().cluster(s -> s.memberList(MemberListRequest.getDefaultInstance()));
        Set<String> eps = new LinkedHashSet<>();
        for (Member m : r.getMembersList()) {
            eps.addAll(m.getClientURLsList());
        }
        return new ArrayList<>(eps);
    }
}
