package io.etcdj.ctl.command;

import io.etcdj.api.etcdserverpb.AlarmRequest;
import io.etcdj.api.etcdserverpb.AlarmResponse;
import io.etcdj.api.etcdserverpb.AlarmType;
import io.etcdj.cli.CliException;
import io.etcdj.ctl.cli.CtlCommand;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code alarm list|disarm}. */
@Command(name = "alarm", description = "Alarm related commands", customSynopsis = "etcdctl alarm <subcommand> [flags]",
        subcommands = {AlarmCommand.Disarm.class, AlarmCommand.ListAlarms.class})
public final class AlarmCommand {

    /** {@code alarm disarm}: deactivates every alarm. */
    @Command(name = "disarm", description = "Disarms all alarms", customSynopsis = "etcdctl alarm disarm [flags]")
    public static final class Disarm extends CtlCommand {
        @Parameters(arity = "0..*")
        List<String> args;

        @Override
        protected void run() {
            if (!orEmpty(args).isEmpty()) {
                throw CliException.badArgs("alarm disarm command accepts no arguments");
            }
            ctx.checkFormat();
            AlarmResponse listed = ctx.client().maintenance(s -> s.alarm(AlarmRequest.newBuilder()
                    .setAction(AlarmRequest.AlarmAction.GET).build()));
            AlarmResponse.Builder all = AlarmResponse.newBuilder();
            for (var a : listed.getAlarmsList()) {
                AlarmResponse r = ctx.client().maintenance(s -> s.alarm(AlarmRequest.newBuilder()
                        .setAction(AlarmRequest.AlarmAction.DEACTIVATE).setMemberID(a.getMemberID())
                        .setAlarm(a.getAlarm()).build()));
                all.setHeader(r.getHeader()).addAllAlarms(r.getAlarmsList());
            }
            if (all.getAlarmsCount() > 0) {
                ctx.printer().alarm(all.build());
            }
        }
    }

    /** {@code alarm list}. */
    @Command(name = "list", description = "Lists all alarms", customSynopsis = "etcdctl alarm list [flags]")
    public static final class ListAlarms extends CtlCommand {
        @Parameters(arity = "0..*")
        List<String> args;

        @Override
        protected void run() {
            if (!orEmpty(args).isEmpty()) {
                throw CliException.badArgs("alarm list command accepts no arguments");
            }
            ctx.checkFormat();
            AlarmResponse r = ctx.client().maintenance(s -> s.alarm(AlarmRequest.newBuilder()
                    .setAction(AlarmRequest.AlarmAction.GET).setAlarm(AlarmType.NONE).build()));
            ctx.printer().alarm(r);
        }
    }
}
