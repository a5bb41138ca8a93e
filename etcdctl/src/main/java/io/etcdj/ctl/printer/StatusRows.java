package io.etcdj.ctl.printer;

import io.etcdj.api.etcdserverpb.StatusResponse;
import io.etcdj.format.GoBytes;
import java.util.ArrayList;
import java.util.List;

/** Endpoint status rows as etcdctl 3.4 tabulates them. */
final class StatusRows {

    static final String[] HEADER = {"ENDPOINT", "ID", "VERSION", "DB SIZE", "IS LEADER", "IS LEARNER", "RAFT TERM",
        "RAFT INDEX", "RAFT APPLIED INDEX", "ERRORS"};

    private StatusRows() {
    }

    static List<List<String>> rows(List<EndpointStatus> statuses) {
        List<List<String>> rows = new ArrayList<>();
        for (EndpointStatus e : statuses) {
            StatusResponse s = e.status();
            rows.add(List.of(e.endpoint(), Long.toHexString(s.getHeader().getMemberId()), s.getVersion(),
                    GoBytes.format(s.getDbSize()),
                    Boolean.toString(s.getLeader() == s.getHeader().getMemberId()),
                    Boolean.toString(s.getIsLearner()),
                    Long.toUnsignedString(s.getRaftTerm()), Long.toUnsignedString(s.getRaftIndex()),
                    Long.toUnsignedString(s.getRaftAppliedIndex()), String.join(", ", s.getErrorsList())));
        }
        return rows;
    }
}
