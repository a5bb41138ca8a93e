package io.etcdj.ctl;

import io.etcdj.ctl.command.AlarmCommand;
import io.etcdj.ctl.command.AuthCommand;
import io.etcdj.ctl.command.CheckCommand;
import io.etcdj.ctl.command.CompactionCommand;
import io.etcdj.ctl.command.CompletionCommand;
import io.etcdj.ctl.command.DefragCommand;
import io.etcdj.ctl.command.DelCommand;
import io.etcdj.ctl.command.DowngradeCommand;
import io.etcdj.ctl.command.ElectCommand;
import io.etcdj.ctl.command.EndpointCommand;
import io.etcdj.ctl.command.GetCommand;
import io.etcdj.ctl.command.LeaseCommand;
import io.etcdj.ctl.command.LockCommand;
import io.etcdj.ctl.command.MakeMirrorCommand;
import io.etcdj.ctl.command.MemberCommand;
import io.etcdj.ctl.command.MoveLeaderCommand;
import io.etcdj.ctl.command.PutCommand;
import io.etcdj.ctl.command.RecoverSpaceCommand;
import io.etcdj.ctl.command.RoleCommand;
import io.etcdj.ctl.command.ShellCommand;
import io.etcdj.ctl.command.SnapshotCommand;
import io.etcdj.ctl.command.TxnCommand;
import io.etcdj.ctl.command.UserCommand;
import io.etcdj.ctl.command.VersionCommand;
import io.etcdj.ctl.command.WatchCommand;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The command tree. Only finished commands are registered, so help lists exactly what works.
 * Commands are registered on demand: an invocation builds the picocli model of its own command only,
 * which keeps start-up short; help and the shell build the whole tree.
 */
@Command(name = "etcdctl", description = "A simple command line client for etcd3.", customSynopsis = "etcdctl [flags]")
public final class RootCommand {

    /** Top-level command names and how to create each, in registration order. */
    public static final Map<String, Supplier<Object>> COMMANDS = commands();

    /**
     * etcdctl's own registration order (its ctl.go), which cobra's "Did you mean this?" follows;
     * the 3.6 additions and the shell come last.
     */
    public static final List<String> SUGGESTION_ORDER = List.of("get", "put", "del", "txn",
            "compaction", "alarm", "defrag", "endpoint", "move-leader", "watch", "version", "lease", "member",
            "snapshot", "make-mirror", "lock", "elect", "auth", "user", "role", "check", "completion", "downgrade",
            "shell", "recover-space");

    private static Map<String, Supplier<Object>> commands() {
        Map<String, Supplier<Object>> m = new LinkedHashMap<>();
        m.put("get", GetCommand::new);
        m.put("put", PutCommand::new);
        m.put("del", DelCommand::new);
        m.put("txn", TxnCommand::new);
        m.put("compaction", CompactionCommand::new);
        m.put("watch", WatchCommand::new);
        m.put("lease", LeaseCommand::new);
        m.put("member", MemberCommand::new);
        m.put("endpoint", EndpointCommand::new);
        m.put("snapshot", SnapshotCommand::new);
        m.put("alarm", AlarmCommand::new);
        m.put("defrag", DefragCommand::new);
        m.put("recover-space", RecoverSpaceCommand::new);
        m.put("move-leader", MoveLeaderCommand::new);
        m.put("auth", AuthCommand::new);
        m.put("user", UserCommand::new);
        m.put("role", RoleCommand::new);
        m.put("lock", LockCommand::new);
        m.put("elect", ElectCommand::new);
        m.put("make-mirror", MakeMirrorCommand::new);
        m.put("check", CheckCommand::new);
        m.put("downgrade", DowngradeCommand::new);
        m.put("completion", CompletionCommand::new);
        m.put("version", VersionCommand::new);
        m.put("shell", ShellCommand::new);
        return m;
    }

    /** The whole tree (help, the shell's completion). */
    public static CommandLine tree() {
        return tree(null);
    }

    /**
     * The root with only {@code commandName} registered when that names a command, else the whole tree.
     */
    public static CommandLine tree(String commandName) {
        CommandLine cl = new CommandLine(new RootCommand());
        Supplier<Object> only = commandName == null ? null : COMMANDS.get(commandName);
        if (only != null) {
            cl.addSubcommand(commandName, only.get());
        } else {
            COMMANDS.forEach((name, factory) -> cl.addSubcommand(name, factory.get()));
        }
        return cl;
    }
}
