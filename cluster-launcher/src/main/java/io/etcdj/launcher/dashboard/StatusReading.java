package io.etcdj.launcher.dashboard;

import io.etcdj.api.etcdserverpb.StatusResponse;
import java.util.List;

/**
 * What one member said about itself in Maintenance.Status, or why it did not answer.
 *
 * @param at when the answer (or failure) came, epoch millis
 * @param commitIndex etcd's "raft index": the member's commit index
 * @param errors the member's errors, alarms among them ("memberID:... alarm:NOSPACE")
 */
record StatusReading(long at, boolean answered, String failure, long id, long leader, long term, long commitIndex,
        long appliedIndex, long dbSize, long dbSizeInUse, boolean learner, List<String> errors, String version) {

    static StatusReading of(long at, StatusResponse s) {
        return new StatusReading(at, true, "", s.getHeader().getMemberId(), s.getLeader(), s.getRaftTerm(),
                s.getRaftIndex(), s.getRaftAppliedIndex(), s.getDbSize(), s.getDbSizeInUse(), s.getIsLearner(),
                List.copyOf(s.getErrorsList()), s.getVersion());
    }

    static StatusReading failed(long at, String why) {
        return new StatusReading(at, false, why, 0, 0, 0, 0, 0, 0, 0, false, List.of(), "");
    }
}
