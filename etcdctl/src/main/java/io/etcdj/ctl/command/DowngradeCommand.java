package io.etcdj.ctl.command;

import io.etcdj.api.etcdserverpb.DowngradeRequest;
import io.etcdj.api.etcdserverpb.DowngradeResponse;
import io.etcdj.cli.CliException;
import io.etcdj.ctl.cli.CtlCommand;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code downgrade validate|enable <version>} and {@code downgrade cancel} (etcdctl 3.6). */
@Command(name = "downgrade", description = "Downgrade related commands. Use `etcdctl downgrade --help` to see subcommands",
        customSynopsis = "etcdctl downgrade <TARGET_VERSION> [flags]",
        subcommands = {DowngradeCommand.Validate.class, DowngradeCommand.Enable.class, DowngradeCommand.Cancel.class})
public final class DowngradeCommand {

    /** Shared flow: check the version argument, send the action, print "Downgrade X success". */
    abstract static class Action extends CtlCommand {
        @Parameters(arity = "0..*")
        List<String> args;

        abstract DowngradeRequest.DowngradeAction action();

        abstract String verb();

        boolean takesVersion() {
            return true;
        }

        @Override
        protected void run() {
            List<String> a = orEmpty(args);
            String version = "";
            if (takesVersion()) {
                if (a.isEmpty()) {
                    throw CliException.badArgs("TARGET_VERSION not provided");
                }
                if (a.size() > 1) {
                    throw CliException.badArgs("too many arguments");
                }
                version = a.get(0);
                if (version.isEmpty()) {
                    throw CliException.badArgs("target version not provided");
                }
            }
            ctx.checkFormat();
            DowngradeRequest req = DowngradeRequest.newBuilder().setAction(action()).setVersion(version).build();
            DowngradeResponse resp = ctx.client().maintenance(s -> s.downgrade(req));
            ctx.printer().authMessage(resp, "Downgrade " + verb() + " success, cluster version " + resp.getVersion());
        }
    }

    /** {@code downgrade validate <version>}. */
    @Command(name = "validate", description = "Validate downgrade capability before starting downgrade",
            customSynopsis = "etcdctl downgrade validate <TARGET_VERSION> [flags]")
    public static final class Validate extends Action {
        @Override
        DowngradeRequest.DowngradeAction action() {
            return DowngradeRequest.DowngradeAction.VALIDATE;
        }

        @Override
        String verb() {
            return "validate";
        }
    }

    /** {@code downgrade enable <version>}. */
    @Command(name = "enable", description = "Start a downgrade action to cluster",
            customSynopsis = "etcdctl downgrade enable <TARGET_VERSION> [flags]")
    public static final class Enable extends Action {
        @Override
        DowngradeRequest.DowngradeAction action() {
            return DowngradeRequest.DowngradeAction.ENABLE;
        }

        @Override
        String verb() {
            return "enable";
        }
    }

    /** {@code downgrade cancel}. */
    @Command(name = "cancel", description = "Cancel the ongoing downgrade action to cluster",
            customSynopsis = "etcdctl downgrade cancel [flags]")
    public static final class Cancel extends Action {
        @Override
        DowngradeRequest.DowngradeAction action() {
            return DowngradeRequest.DowngradeAction.CANCEL;
        }

        @Override
        String verb() {
            return "cancel";
        }

        @Override
        boolean takesVersion() {
            return false;
        }
    }
}
