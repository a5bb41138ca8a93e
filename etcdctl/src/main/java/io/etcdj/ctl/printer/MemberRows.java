package io.etcdj.ctl.printer;

import io.etcdj.api.etcdserverpb.Member;
import io.etcdj.api.etcdserverpb.MemberListResponse;
import java.util.ArrayList;
import java.util.List;

/** The member list as etcdctl tabulates it: ID, status, name, peer and client URLs, learner flag. */
final class MemberRows {

    static final String[] HEADER = {"ID", "STATUS", "NAME", "PEER ADDRS", "CLIENT ADDRS", "IS LEARNER"};

    private MemberRows() {
    }

    static List<List<String>> rows(MemberListResponse r) {
        List<List<String>> rows = new ArrayList<>();
        for (Member m : r.getMembersList()) {
            String status = m.getName().isEmpty() ? "unstarted" : "started";
            rows.add(List.of(Long.toHexString(m.getID()), status, m.getName(),
                    String.join(",", m.getPeerURLsList()), String.join(",", m.getClientURLsList()),
                    Boolean.toString(m.getIsLearner())));
        }
        return rows;
    }
}
