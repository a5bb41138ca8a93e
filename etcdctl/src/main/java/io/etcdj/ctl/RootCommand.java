package io.etcdj.ctl;

import io.etcdj.ctl.command.AlarmCommand;
import io.etcdj.ctl.command.AuthCommand;
import io.etcdj.ctl.command.ElectCommand;
import io.etcdj.ctl.command.LockCommand;
import io.etcdj.ctl.command.RoleCommand;
import io.etcdj.ctl.command.ShellCommand;
import io.etcdj.ctl.command.UserCommand;
import io.etcdj.ctl.command.CompactionCommand;
import io.etcdj.ctl.command.DefragCommand;
import io.etcdj.ctl.command.DelCommand;
import io.etcdj.ctl.command.EndpointCommand;
import io.etcdj.ctl.command.GetCommand;
import io.etcdj.ctl.command.LeaseCommand;
import io.etcdj.ctl.command.MemberCommand;
import io.etcdj.ctl.command.MoveLeaderCommand;
import io.etcdj.ctl.command.PutCommand;
import io.etcdj.ctl.command.SnapshotCommand;
import io.etcdj.ctl.command.TxnCommand;
import io.etcdj.ctl.command.VersionCommand;
import io.etcdj.ctl.command.WatchCommand;
import picocli.CommandLine.Command;

/** The command tree: only finished commands are registered, so help lists exactly what works. */
@Command(name = "etcdctl", description = "A simple command line client for etcd3.",
        customSynopsis = "etcdctl [flags]",
        subcommands = {GetCommand.class, PutCommand.class, DelCommand.class, TxnCommand.class, CompactionCommand.class,
            WatchCommand.class,
            LeaseCommand.class, MemberCommand.class, EndpointCommand.class, SnapshotCommand.class,
            AlarmCommand.class, DefragCommand.class, MoveLeaderCommand.class, AuthCommand.class, UserCommand.class,
            RoleCommand.class, LockCommand.class, ElectCommand.class, VersionCommand.class, ShellCommand.class})
public final class RootCommand {
}
