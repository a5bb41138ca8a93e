package io.etcdj.ctl.command;

import com.google.protobuf.ByteString;
import io.etcdj.api.authpb.Permission;
import io.etcdj.api.etcdserverpb.AuthRoleAddRequest;
import io.etcdj.api.etcdserverpb.AuthRoleDeleteRequest;
import io.etcdj.api.etcdserverpb.AuthRoleGetRequest;
import io.etcdj.api.etcdserverpb.AuthRoleGrantPermissionRequest;
import io.etcdj.api.etcdserverpb.AuthRoleListRequest;
import io.etcdj.api.etcdserverpb.AuthRoleRevokePermissionRequest;
import io.etcdj.cli.CliException;
import io.etcdj.ctl.cli.CtlCommand;
import io.etcdj.ctl.printer.KeyRanges;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code role add|delete|get|list|grant-permission|revoke-permission}. */
@Command(name = "role", description = "Role related commands", customSynopsis = "etcdctl role <subcommand> [flags]",
        subcommands = {RoleCommand.Add.class, RoleCommand.Delete.class, RoleCommand.Get.class, RoleCommand.ListRoles.class,
            RoleCommand.GrantPermission.class, RoleCommand.RevokePermission.class})
public final class RoleCommand {

    /**
     * etcdctl's {@code permRange}: the key and range end of a permission from the key argument, an
     * optional end argument and the flags. An empty key is sent as {@code "\x00"} (the server
     * keeps permissions as byte intervals, so the empty prefix is {@code ["\x00", end)}), and
     * with {@code --prefix} or {@code --from-key} it gets the open end {@code "\x00"}: the whole
     * key space.
     */
    static ByteString[] permRange(List<String> a, int keyIndex, boolean prefix, boolean fromKey) {
        String key = a.get(keyIndex);
        if (key.isEmpty()) {
            if (prefix && fromKey) {
                throw CliException.badArgs("--from-key and --prefix flags are mutually exclusive");
            }
            return new ByteString[] {KeyRanges.FROM_KEY, prefix || fromKey ? KeyRanges.FROM_KEY : ByteString.EMPTY};
        }
        return new ByteString[] {Args.bytes(key), rangeEnd(key, a, keyIndex + 1, prefix, fromKey)};
    }

    /** etcdctl's {@code rangeEndFromPermFlags}: explicit, prefix, from-key, or none for a single key. */
    private static ByteString rangeEnd(String key, List<String> a, int endIndex, boolean prefix, boolean fromKey) {
        if (a.size() <= endIndex) {
            if (prefix) {
                if (fromKey) {
                    throw CliException.badArgs("--from-key and --prefix flags are mutually exclusive");
                }
                return KeyRanges.prefixEnd(Args.bytes(key));
            }
            return fromKey ? KeyRanges.FROM_KEY : ByteString.EMPTY;
        }
        if (prefix) {
            throw CliException.badArgs("unexpected endkey argument with --prefix flag");
        }
        if (fromKey) {
            throw CliException.badArgs("unexpected endkey argument with --from-key flag");
        }
        return Args.bytes(a.get(endIndex));
    }

    /** {@code role add name}. */
    @Command(name = "add", description = "Adds a new role", customSynopsis = "etcdctl role add <role name> [flags]")
    public static final class Add extends CtlCommand {
        @Parameters(arity = "0..*")
        List<String> args;

        @Override
        protected void run() {
            String arg = onlyArg(args, "role add command requires role name as its argument");
            ctx.checkFormat();
            var resp = ctx.client().auth(s -> s.roleAdd(AuthRoleAddRequest.newBuilder().setName(arg).build()));
            ctx.printer().authMessage(resp, "Role " + arg + " created");
        }
    }

    /** {@code role delete name}. */
    @Command(name = "delete", description = "Deletes a role", customSynopsis = "etcdctl role delete <role name> [flags]")
    public static final class Delete extends CtlCommand {
        @Parameters(arity = "0..*")
        List<String> args;

        @Override
        protected void run() {
            String arg = onlyArg(args, "role delete command requires role name as its argument");
            ctx.checkFormat();
            var resp = ctx.client().auth(s -> s.roleDelete(AuthRoleDeleteRequest.newBuilder().setRole(arg).build()));
            ctx.printer().authMessage(resp, "Role " + arg + " deleted");
        }
    }

    /** {@code role get name}. */
    @Command(name = "get", description = "Gets detailed information of a role",
            customSynopsis = "etcdctl role get <role name> [flags]")
    public static final class Get extends CtlCommand {
        @Parameters(arity = "0..*")
        List<String> args;

        @Override
        protected void run() {
            String arg = onlyArg(args, "role get command requires role name as its argument");
            ctx.checkFormat();
            var resp = ctx.client().auth(s -> s.roleGet(AuthRoleGetRequest.newBuilder().setRole(arg).build()));
            ctx.printer().roleGet(arg, resp);
        }
    }

    /** {@code role list}. */
    @Command(name = "list", description = "Lists all roles", customSynopsis = "etcdctl role list [flags]")
    public static final class ListRoles extends CtlCommand {
        @Parameters(arity = "0..*", hidden = true)
        List<String> ignored;

        @Override
        protected void run() {
            ctx.checkFormat();
            var resp = ctx.client().auth(s -> s.roleList(AuthRoleListRequest.getDefaultInstance()));
            ctx.printer().roleList(resp);
        }
    }

    /** {@code role grant-permission role read|write|readwrite key [end]}. */
    @Command(name = "grant-permission", description = "Grants a key to a role",
            customSynopsis = "etcdctl role grant-permission [options] <role name> <permission type> <key> [endkey] [flags]")
    public static final class GrantPermission extends CtlCommand {
        @Option(names = "--prefix", arity = "0..1", description = "grant a prefix permission")
        boolean prefix;

        @Option(names = "--from-key", arity = "0..1",
                description = "grant a permission of keys that are greater than or equal to the given key using byte compare")
        boolean fromKey;

        @Parameters(arity = "0..*")
        List<String> args;

        @Override
        protected void run() {
            List<String> a = orEmpty(args);
            if (a.size() < 3) {
                throw CliException.badArgs(
                        "role grant command requires role name, permission type, and key [endkey] as its argument");
            }
            Permission.Type type = switch (a.get(1).toLowerCase(Locale.ROOT)) {
                case "read" -> Permission.Type.READ;
                case "write" -> Permission.Type.WRITE;
                case "readwrite" -> Permission.Type.READWRITE;
                default -> throw CliException.badArgs("invalid permission type: " + a.get(1));
            };
            ByteString[] range = permRange(a, 2, prefix, fromKey);
            ctx.checkFormat();
            AuthRoleGrantPermissionRequest req = AuthRoleGrantPermissionRequest.newBuilder().setName(a.get(0))
                    .setPerm(Permission.newBuilder().setPermType(type).setKey(range[0]).setRangeEnd(range[1]))
                    .build();
            var resp = ctx.client().auth(s -> s.roleGrantPermission(req));
            ctx.printer().authMessage(resp, "Role " + a.get(0) + " updated");
        }
    }

    /** {@code role revoke-permission role key [end]}. */
    @Command(name = "revoke-permission", description = "Revokes a key from a role",
            customSynopsis = "etcdctl role revoke-permission <role name> <key> [endkey] [flags]")
    public static final class RevokePermission extends CtlCommand {
        @Option(names = "--prefix", arity = "0..1", description = "revoke a prefix permission")
        boolean prefix;

        @Option(names = "--from-key", arity = "0..1",
                description = "revoke a permission of keys that are greater than or equal to the given key using byte compare")
        boolean fromKey;

        @Parameters(arity = "0..*")
        List<String> args;

        @Override
        protected void run() {
            List<String> a = orEmpty(args);
            if (a.size() < 2) {
                throw CliException.badArgs("role revoke-permission command requires role name and key [endkey] as its argument");
            }
            ByteString[] range = permRange(a, 1, prefix, fromKey);
            ByteString end = range[1];
            ctx.checkFormat();
            AuthRoleRevokePermissionRequest req = AuthRoleRevokePermissionRequest.newBuilder().setRole(a.get(0))
                    .setKey(range[0]).setRangeEnd(end).build();
            var resp = ctx.client().auth(s -> s.roleRevokePermission(req));
            String text;
            if (end.isEmpty()) {
                text = "Permission of key " + a.get(1) + " is revoked from role " + a.get(0);
            } else if (end.equals(KeyRanges.FROM_KEY)) {
                text = "Permission of range [" + a.get(1) + ", <open ended> is revoked from role " + a.get(0);
            } else {
                text = "Permission of range [" + a.get(1) + ", " + end.toStringUtf8() + ") is revoked from role " + a.get(0);
            }
            ctx.printer().authMessage(resp, text);
        }
    }
}
