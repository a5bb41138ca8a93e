package io.etcdj.ctl.command;

import io.etcdj.api.etcdserverpb.DeleteRangeRequest;
import io.etcdj.api.etcdserverpb.DeleteRangeResponse;
import io.etcdj.cli.CliException;
import io.etcdj.ctl.cli.CtlCommand;
import io.etcdj.ctl.printer.KeyRanges;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code del key [range_end]}: DeleteRange. */
@Command(name = "del", description = "Removes the specified key or range of keys [key, range_end)",
        customSynopsis = "etcdctl del [options] <key> [range_end] [flags]")
public final class DelCommand extends CtlCommand {

    @Option(names = "--prefix", arity = "0..1", description = "delete keys with matching prefix")
    boolean prefix;

    @Option(names = "--prev-kv", arity = "0..1", description = "return deleted key-value pairs")
    boolean prevKv;

    @Option(names = "--from-key", arity = "0..1",
            description = "delete keys that are greater than or equal to the given key using byte compare")
    boolean fromKey;

    /**
     * etcdctl 3.5's flag that marks a two-argument delete as intended. etcdctl 3.6 warns and waits two
     * seconds before a two-argument delete without it; here, as in 3.4, the delete is sent at once.
     */
    @Option(names = "--range", arity = "0..1", description = "delete range of keys")
    boolean range;

    @Parameters(arity = "0..*")
    List<String> args;

    @Override
    protected void run() {
        DeleteRangeRequest req = request(orEmpty(args));
        ctx.checkFormat();
        DeleteRangeResponse resp = ctx.client().kv(s -> s.deleteRange(req));
        ctx.printer().del(resp);
    }

    /** The request for del's arguments and flags; also used by txn. */
    DeleteRangeRequest request(List<String> a) {
        if (a.isEmpty() || a.size() > 2) {
            throw CliException.badArgs("del command needs one argument as key and an optional argument as range_end");
        }
        if ((prefix || fromKey) && a.size() > 1) {
            throw CliException.badArgs("too many arguments, only accept one argument when `--prefix` or `--from-key` is set");
        }
        if (prefix && fromKey) {
            throw CliException.badArgs("`--prefix` and `--from-key` cannot be set at the same time, choose one");
        }
        DeleteRangeRequest.Builder b = DeleteRangeRequest.newBuilder().setKey(Args.bytes(a.get(0))).setPrevKv(prevKv);
        if (a.size() > 1) {
            b.setRangeEnd(Args.bytes(a.get(1)));
        }
        if (prefix) {
            if (a.get(0).isEmpty()) {
                b.setKey(KeyRanges.FROM_KEY).setRangeEnd(KeyRanges.FROM_KEY);
            } else {
                b.setRangeEnd(KeyRanges.prefixEnd(b.getKey()));
            }
        }
        if (fromKey) {
            if (a.get(0).isEmpty()) {
                b.setKey(KeyRanges.FROM_KEY);
            }
            b.setRangeEnd(KeyRanges.FROM_KEY);
        }
        return b.build();
    }
}
