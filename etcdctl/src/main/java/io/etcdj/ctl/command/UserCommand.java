package io.etcdj.ctl.command;

import io.etcdj.api.authpb.UserAddOptions;
import io.etcdj.api.etcdserverpb.AuthRoleGetRequest;
import io.etcdj.api.etcdserverpb.AuthUserAddRequest;
import io.etcdj.api.etcdserverpb.AuthUserChangePasswordRequest;
import io.etcdj.api.etcdserverpb.AuthUserDeleteRequest;
import io.etcdj.api.etcdserverpb.AuthUserGetRequest;
import io.etcdj.api.etcdserverpb.AuthUserGetResponse;
import io.etcdj.api.etcdserverpb.AuthUserGrantRoleRequest;
import io.etcdj.api.etcdserverpb.AuthUserListRequest;
import io.etcdj.api.etcdserverpb.AuthUserRevokeRoleRequest;
import io.etcdj.cli.CliException;
import io.etcdj.cli.ExitCodes;
import io.etcdj.ctl.cli.CtlCommand;
import io.etcdj.ctl.cli.CtlContext;
import java.io.Console;
import java.io.IOException;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code user add|delete|get|list|passwd|grant-role|revoke-role}. */
@Command(name = "user", description = "User related commands", customSynopsis = "etcdctl user <subcommand> [flags]",
        subcommands = {UserCommand.Add.class, UserCommand.Delete.class, UserCommand.Get.class, UserCommand.ListUsers.class,
            UserCommand.Passwd.class, UserCommand.GrantRole.class, UserCommand.RevokeRole.class})
public final class UserCommand {

    /** Reads a password line from standard input (non-interactive) or the console. */
    static String readPassword(CtlContext ctx, String prompt) {
        Console console = System.console();
        if (console != null) {
            char[] pw = console.readPassword(prompt);
            return pw == null ? "" : new String(pw);
        }
        try {
            String line = ctx.stdinReader().readLine();
            return line == null ? "" : line;
        } catch (IOException e) {
            throw new CliException(ExitCodes.BAD_ARGS, "failed to read password: " + e.getMessage());
        }
    }

    /**
     * A new password for {@code user add} and {@code user passwd}: at a terminal etcdctl asks twice
     * ("Password of NAME: ", then "Type password of NAME again for confirmation: ") and refuses a
     * mismatch; otherwise it reads one line.
     */
    static String readNewPassword(CtlContext ctx, String name, boolean interactive) {
        if (!interactive) {
            // --interactive=false: one word from standard input, no prompt (Go's Scanf("%s"))
            try {
                String line = ctx.stdinReader().readLine();
                String[] words = line == null ? new String[0] : line.trim().split("\\s+");
                return words.length == 0 ? "" : words[0];
            } catch (IOException e) {
                throw new CliException(ExitCodes.BAD_ARGS, "failed to read password: " + e.getMessage());
            }
        }
        String password = readPassword(ctx, "Password of " + name + ": ");
        if (System.console() != null) {
            if (password.isEmpty()) {
                throw CliException.badArgs("empty password");
            }
            String again = readPassword(ctx, "Type password of " + name + " again for confirmation: ");
            if (!again.equals(password)) {
                throw CliException.badArgs("given passwords are different");
            }
        }
        return password;
    }

    /** {@code user add name[:password]}. */
    @Command(name = "add", description = "Adds a new user",
            customSynopsis = "etcdctl user add <user name or user:password> [options] [flags]")
    public static final class Add extends CtlCommand {
        @Option(names = "--interactive", arity = "0..1", defaultValue = "true",
                description = "Read password from stdin instead of interactive terminal")
        boolean interactive;

        @Option(names = "--new-user-password", defaultValue = "", description = "Supply password from the command line flag")
        String newUserPassword;

        @Option(names = "--no-password", arity = "0..1", description = "Create a user without password (CN based auth only)")
        boolean noPassword;

        @Parameters(arity = "0..*")
        List<String> args;

        /** At a terminal the password is read from the console without echo. */
        @Override
        public boolean needsOwnProcess(boolean terminal) {
            // only a prompt needs the console: not for name:password, --new-user-password or --no-password
            return terminal && interactive && args != null && args.size() == 1 && !args.get(0).contains(":")
                    && newUserPassword.isEmpty() && !noPassword;
        }

        @Override
        protected void run() {
            String arg = onlyArg(args, "user add command requires user name as its argument");
            // etcdctl's order: --no-password and --new-user-password take the argument whole as the
            // name; otherwise "name:password" is split, and an empty name is refused before any request
            String name = arg;
            String password = "";
            int colon = name.indexOf(':');
            if (noPassword) {
                password = "";
            } else if (!newUserPassword.isEmpty()) {
                password = newUserPassword;
            } else if (colon >= 0) {
                password = name.substring(colon + 1);
                name = name.substring(0, colon);
                if (name.isEmpty()) {
                    throw CliException.badArgs("empty user name is not allowed");
                }
            } else {
                password = readNewPassword(ctx, name, interactive);
            }
            ctx.checkFormat();
            AuthUserAddRequest req = AuthUserAddRequest.newBuilder().setName(name).setPassword(password)
                    .setOptions(UserAddOptions.newBuilder().setNoPassword(noPassword)).build();
            var resp = ctx.client().auth(s -> s.userAdd(req));
            ctx.printer().authMessage(resp, "User " + name + " created");
        }
    }

    /** {@code user delete name}. */
    @Command(name = "delete", description = "Deletes a user", customSynopsis = "etcdctl user delete <user name> [flags]")
    public static final class Delete extends CtlCommand {
        @Parameters(arity = "0..*")
        List<String> args;

        @Override
        protected void run() {
            String arg = onlyArg(args, "user delete command requires user name as its argument");
            ctx.checkFormat();
            var resp = ctx.client().auth(s -> s.userDelete(AuthUserDeleteRequest.newBuilder().setName(arg).build()));
            ctx.printer().authMessage(resp, "User " + arg + " deleted");
        }
    }

    /** {@code user get name [--detail]}. */
    @Command(name = "get", description = "Gets detailed information of a user",
            customSynopsis = "etcdctl user get <user name> [options] [flags]")
    public static final class Get extends CtlCommand {
        @Option(names = "--detail", arity = "0..1", description = "Show permissions of roles granted to the user")
        boolean detail;

        @Parameters(arity = "0..*")
        List<String> args;

        @Override
        protected void run() {
            String arg = onlyArg(args, "user get command requires user name as its argument");
            String name = arg;
            ctx.checkFormat();
            AuthUserGetResponse resp = ctx.client().auth(s -> s.userGet(AuthUserGetRequest.newBuilder().setName(name).build()));
            if (detail && "simple".equals(ctx.options().writeOut())) {
                ctx.out().println("User: " + name);
                for (String role : resp.getRolesList()) {
                    ctx.out().println();
                    var r = ctx.client().auth(s -> s.roleGet(AuthRoleGetRequest.newBuilder().setRole(role).build()));
                    ctx.printer().roleGet(role, r);
                }
                return;
            }
            ctx.printer().userGet(name, resp);
        }
    }

    /** {@code user list}. */
    @Command(name = "list", description = "Lists all users", customSynopsis = "etcdctl user list [flags]")
    public static final class ListUsers extends CtlCommand {
        @Parameters(arity = "0..*", hidden = true)
        List<String> ignored;

        @Override
        protected void run() {
            ctx.checkFormat();
            var resp = ctx.client().auth(s -> s.userList(AuthUserListRequest.getDefaultInstance()));
            ctx.printer().userList(resp);
        }
    }

    /** {@code user passwd name}: the new password is read like user add's. */
    @Command(name = "passwd", description = "Changes password of user",
            customSynopsis = "etcdctl user passwd <user name> [options] [flags]")
    public static final class Passwd extends CtlCommand {
        @Option(names = "--interactive", arity = "0..1", defaultValue = "true",
                description = "If true, read password from stdin instead of interactive terminal")
        boolean interactive;

        @Parameters(arity = "0..*")
        List<String> args;

        /** At a terminal the password is read from the console without echo. */
        @Override
        public boolean needsOwnProcess(boolean terminal) {
            return terminal;
        }

        @Override
        protected void run() {
            String arg = onlyArg(args, "user passwd command requires user name as its argument");
            String password = readNewPassword(ctx, arg, interactive);
            ctx.checkFormat();
            var resp = ctx.client().auth(s -> s.userChangePassword(AuthUserChangePasswordRequest.newBuilder()
                    .setName(arg).setPassword(password).build()));
            ctx.printer().authMessage(resp, "Password updated");
        }
    }

    /** {@code user grant-role user role}. */
    @Command(name = "grant-role", description = "Grants a role to a user",
            customSynopsis = "etcdctl user grant-role <user name> <role name> [flags]")
    public static final class GrantRole extends CtlCommand {
        @Parameters(arity = "0..*")
        List<String> args;

        @Override
        protected void run() {
            List<String> a = orEmpty(args);
            if (a.size() != 2) {
                throw CliException.badArgs("user grant command requires user name and role name as its argument");
            }
            ctx.checkFormat();
            var resp = ctx.client().auth(s -> s.userGrantRole(AuthUserGrantRoleRequest.newBuilder()
                    .setUser(a.get(0)).setRole(a.get(1)).build()));
            ctx.printer().authMessage(resp, "Role " + a.get(1) + " is granted to user " + a.get(0));
        }
    }

    /** {@code user revoke-role user role}. */
    @Command(name = "revoke-role", description = "Revokes a role from a user",
            customSynopsis = "etcdctl user revoke-role <user name> <role name> [flags]")
    public static final class RevokeRole extends CtlCommand {
        @Parameters(arity = "0..*")
        List<String> args;

        @Override
        protected void run() {
            List<String> a = orEmpty(args);
            if (a.size() != 2) {
                throw CliException.badArgs("user revoke-role requires user name and role name as its argument");
            }
            ctx.checkFormat();
            var resp = ctx.client().auth(s -> s.userRevokeRole(AuthUserRevokeRoleRequest.newBuilder()
                    .setName(a.get(0)).setRole(a.get(1)).build()));
            ctx.printer().authMessage(resp, "Role " + a.get(1) + " is revoked from user " + a.get(0));
        }
    }
}
