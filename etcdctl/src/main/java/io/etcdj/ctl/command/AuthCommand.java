package io.etcdj.ctl.command;

import io.etcdj.api.etcdserverpb.AuthDisableRequest;
import io.etcdj.api.etcdserverpb.AuthEnableRequest;
import io.etcdj.api.etcdserverpb.AuthStatusRequest;
import io.etcdj.api.etcdserverpb.AuthStatusResponse;
import io.etcdj.api.etcdserverpb.AuthUserGrantRoleRequest;
import io.etcdj.cli.CliException;
import io.etcdj.client.EtcdClientException;
import io.etcdj.ctl.cli.CtlCommand;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code auth enable|disable|status}. */
@Command(name = "auth", description = "Enable or disable authentication", customSynopsis = "etcdctl auth <enable or disable> [flags]",
        subcommands = {AuthCommand.Enable.class, AuthCommand.Disable.class, AuthCommand.Status.class})
public final class AuthCommand {

    /** Enables auth; like etcdctl, grants the root role to root first when that is all that is missing. */
    @Command(name = "enable", description = "Enables authentication", customSynopsis = "etcdctl auth enable [flags]")
    public static final class Enable extends CtlCommand {
        @Parameters(arity = "0..*")
        List<String> args;

        @Override
        protected void run() {
            if (!orEmpty(args).isEmpty()) {
                throw CliException.badArgs("auth enable command does not accept any arguments");
            }
            try {
                ctx.client().auth(s -> s.authEnable(AuthEnableRequest.getDefaultInstance()));
            } catch (EtcdClientException e) {
                if (!"etcdserver: root user does not have root role".equals(e.getMessage())) {
                    throw e;
                }
                ctx.client().auth(s -> s.userGrantRole(AuthUserGrantRoleRequest.newBuilder()
                        .setUser("root").setRole("root").build()));
                ctx.client().auth(s -> s.authEnable(AuthEnableRequest.getDefaultInstance()));
            }
            ctx.out().println("Authentication Enabled");
        }
    }

    /** Disables auth. */
    @Command(name = "disable", description = "Disables authentication", customSynopsis = "etcdctl auth disable [flags]")
    public static final class Disable extends CtlCommand {
        @Parameters(arity = "0..*")
        List<String> args;

        @Override
        protected void run() {
            if (!orEmpty(args).isEmpty()) {
                throw CliException.badArgs("auth disable command does not accept any arguments");
            }
            ctx.client().auth(s -> s.authDisable(AuthDisableRequest.getDefaultInstance()));
            ctx.out().println("Authentication Disabled");
        }
    }

    /** Reports whether auth is enabled and the auth store's revision (etcdctl 3.5; etcd 3.4 servers answer it too). */
    @Command(name = "status", description = "Returns authentication status", customSynopsis = "etcdctl auth status [flags]")
    public static final class Status extends CtlCommand {
        @Parameters(arity = "0..*")
        List<String> args;

        @Override
        protected void run() {
            if (!orEmpty(args).isEmpty()) {
                throw CliException.badArgs("auth status command does not accept any arguments");
            }
            ctx.checkFormat();
            AuthStatusResponse resp = ctx.client().auth(s -> s.authStatus(AuthStatusRequest.getDefaultInstance()));
            ctx.printer().authStatus(resp);
        }
    }
}
