package io.etcdj.launcher.supervisor;

import io.etcdj.api.etcdserverpb.StatusResponse;
import io.etcdj.launcher.LauncherException;
import io.etcdj.launcher.client.MemberCallException;
import io.etcdj.launcher.client.MemberClient;
import io.etcdj.launcher.process.MemberProcess;
import java.time.Duration;
import java.util.Optional;

/**
 * {@code move-leader NAME}: etcdctl's move-leader with the member named instead of its ID. Asks
 * the target for its ID and every running member for its status to find the leader, then sends
 * Maintenance.MoveLeader to the leader (the only member that accepts it).
 */
final class LeaderTransfer {
    private static final Duration RPC_TIMEOUT = Duration.ofSeconds(5);

    private final Supervisor supervisor;

    LeaderTransfer(Supervisor supervisor) {
        this.supervisor = supervisor;
    }

    void moveTo(MemberProcess target, ControlServer.Reply reply) {
        long targetId = statusOf(target)
                .orElseThrow(() -> new LauncherException(target.spec().process() + " is not serving clients"))
                .getHeader().getMemberId();
        MemberProcess leader = null;
        long leaderId = 0;
        for (MemberProcess mp : supervisor.members()) {
            Optional<StatusResponse> s = statusOf(mp);
            if (s.isPresent() && s.get().getLeader() == s.get().getHeader().getMemberId()) {
                leader = mp;
                leaderId = s.get().getLeader();
            }
        }
        if (leader == null) {
            throw new LauncherException("the cluster has no leader to move leadership from");
        }
        if (leader == target) {
            reply.out(target.spec().process() + " is already the leader");
            return;
        }
        try (MemberClient c = supervisor.clientFor(leader, RPC_TIMEOUT)) {
            c.moveLeader(targetId);
        }
        // etcdctl move-leader's own line
        reply.out(String.format("Leadership transferred from %x to %x", leaderId, targetId));
    }

    private Optional<StatusResponse> statusOf(MemberProcess mp) {
        if (mp.state() != MemberProcess.State.RUNNING) {
            return Optional.empty();
        }
        try (MemberClient c = supervisor.clientFor(mp, RPC_TIMEOUT)) {
            return Optional.of(c.status());
        } catch (MemberCallException e) {
            return Optional.empty();
        }
    }
}
