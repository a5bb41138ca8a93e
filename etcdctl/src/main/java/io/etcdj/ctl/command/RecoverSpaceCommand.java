package io.etcdj.ctl.command;

import io.etcdj.api.etcdserverpb.AlarmMember;
import io.etcdj.api.etcdserverpb.AlarmRequest;
import io.etcdj.api.etcdserverpb.AlarmType;
import io.etcdj.api.etcdserverpb.CompactionRequest;
import io.etcdj.api.etcdserverpb.DefragmentRequest;
import io.etcdj.api.etcdserverpb.StatusRequest;
import io.etcdj.api.etcdserverpb.StatusResponse;
import io.etcdj.cli.CliException;
import io.etcdj.cli.GoValues;
import io.etcdj.cli.progress.ProgressLine;
import io.etcdj.client.EtcdClient;
import io.etcdj.client.EtcdClientException;
import io.etcdj.ctl.cli.CtlCommand;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code recover-space} (beyond etcd, its #16779): the operations guide's NOSPACE recovery in one
 * step. It compacts the key space to the current revision (or {@code --revision}), defragments
 * every member in turn (the members' client URLs from the member list, as {@code defrag --cluster};
 * {@code --endpoints-only} keeps to the given endpoints), disarms the alarms, and prints each step
 * and the space each member gave back. A member that cannot be defragmented is reported and the
 * command exits 1 after the other steps, since its alarm would be raised again.
 */
@Command(name = "recover-space", description = "Compacts, defragments every member and disarms alarms (NOSPACE recovery)",
        customSynopsis = "etcdctl recover-space [options] [flags]",
        header = {"Recovers from a NOSPACE alarm in one step: compacts to the current revision (or --revision),",
            "defragments each member in turn, disarms all alarms, and prints what it did and the space won."})
public final class RecoverSpaceCommand extends CtlCommand {

    @Option(names = "--revision", defaultValue = "0", description = "revision to compact to (0: the current revision)")
    String revision;

    @Option(names = "--endpoints-only", arity = "0..1",
            description = "defragment only the endpoints given with --endpoints, not every member")
    boolean endpointsOnly;

    @Parameters(arity = "0..*", hidden = true)
    List<String> args;

    /** At a terminal the progress line needs the process's own stderr. */
    @Override
    public boolean needsOwnProcess(boolean terminal) {
        return terminal;
    }

    @Override
    protected void run() {
        if (!orEmpty(args).isEmpty()) {
            throw CliException.badArgs("recover-space command accepts no arguments");
        }
        RecoveryReport report = new RecoveryReport(ctx.options().writeOut());
        long rev = parseRevision();
        StatusResponse first = ctx.client().maintenance(s -> s.status(StatusRequest.getDefaultInstance()));
        long target = rev > 0 ? rev : first.getHeader().getRevision();
        report.compacted(target, compact(target));
        List<String> eps = endpointsOnly ? ctx.options().endpoints() : ClusterEndpoints.resolve(ctx, true);
        boolean failed = false;
        try (ProgressLine progress = CommandProgress.line(ctx, "recover-space: defragmenting", ProgressLine.Unit.COUNT,
                "members")) {
            for (int i = 0; i < eps.size(); i++) {
                progress.update(i, eps.size());
                String ep = eps.get(i);
                try (EtcdClient c = ctx.newClient(List.of(ep))) {
                    StatusResponse before = c.maintenance(s -> s.status(StatusRequest.getDefaultInstance()));
                    c.maintenance(s -> s.defragment(DefragmentRequest.getDefaultInstance()));
                    StatusResponse after = c.maintenance(s -> s.status(StatusRequest.getDefaultInstance()));
                    progress.clear();
                    report.defragmented(ep, before.getHeader().getMemberId(), before.getDbSize(), after.getDbSize());
                } catch (EtcdClientException | CliException e) {
                    progress.clear();
                    report.defragFailed(ep, e.getMessage());
                    failed = true;
                }
            }
        }
        disarm(report);
        ctx.out().print(report.render());
        if (failed) {
            throw CliException.error("some members were not defragmented: run recover-space again once they are reachable");
        }
    }

    private long parseRevision() {
        try {
            long rev = GoValues.parseInt(revision, 10);
            if (rev < 0) {
                throw CliException.badArgs("--revision must not be negative");
            }
            return rev;
        } catch (IllegalArgumentException e) {
            throw CliException.badArgs("bad --revision (" + e.getMessage() + ")");
        }
    }

    /** Compacts physically, so defragmentation can give the space back; false when already compacted there. */
    private boolean compact(long target) {
        try {
            ctx.client().kv(s -> s.compact(CompactionRequest.newBuilder().setRevision(target).setPhysical(true).build()));
            return true;
        } catch (EtcdClientException e) {
            if (e.getMessage() != null && e.getMessage().contains("required revision has been compacted")) {
                return false;
            }
            throw e;
        }
    }

    private void disarm(RecoveryReport report) {
        var listed = ctx.client().maintenance(s -> s.alarm(AlarmRequest.newBuilder()
                .setAction(AlarmRequest.AlarmAction.GET).setAlarm(AlarmType.NONE).build()));
        for (AlarmMember a : listed.getAlarmsList()) {
            ctx.client().maintenance(s -> s.alarm(AlarmRequest.newBuilder().setAction(AlarmRequest.AlarmAction.DEACTIVATE)
                    .setMemberID(a.getMemberID()).setAlarm(a.getAlarm()).build()));
            report.disarmed(a.getMemberID(), a.getAlarm().name());
        }
    }
}
