package io.etcdj.ctl.command;

import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.api.etcdserverpb.RangeResponse;
import io.etcdj.cli.CliException;
import io.etcdj.cli.ExitCodes;
import io.etcdj.ctl.cli.CtlCommand;
import io.etcdj.ctl.printer.KeyRanges;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code get key [range_end]}: Range with etcdctl's flags. */
@Command(name = "get", description = "Gets the key or a range of keys",
        customSynopsis = "etcdctl get [options] <key> [range_end] [flags]")
public final class GetCommand extends CtlCommand {

    @Option(names = "--consistency", defaultValue = "l", description = "Linearizable(l) or Serializable(s)")
    String consistency;

    @Option(names = "--order", defaultValue = "", description = "Order of results; ASCEND or DESCEND (ASCEND by default)")
    String order;

    @Option(names = "--sort-by", defaultValue = "", description = "Sort target; CREATE, KEY, MODIFY, VALUE, or VERSION")
    String sortBy;

    @Option(names = "--limit", defaultValue = "0", description = "Maximum number of results")
    long limit;

    @Option(names = "--prefix", arity = "0..1", description = "Get keys with matching prefix")
    boolean prefix;

    @Option(names = "--from-key", arity = "0..1",
            description = "Get keys that are greater than or equal to the given key using byte compare")
    boolean fromKey;

    @Option(names = "--rev", defaultValue = "0", description = "Specify the kv revision")
    long rev;

    @Option(names = "--keys-only", arity = "0..1", description = "Get only the keys")
    boolean keysOnly;

    @Option(names = "--count-only", arity = "0..1", description = "Get only the count")
    boolean countOnly;

    // etcdctl 3.6's revision filters; the server applies them after the range is read.
    @Option(names = "--min-create-rev", defaultValue = "0", description = "Minimum create revision")
    long minCreateRev;

    @Option(names = "--max-create-rev", defaultValue = "0", description = "Maximum create revision")
    long maxCreateRev;

    @Option(names = "--min-mod-rev", defaultValue = "0", description = "Minimum modification revision")
    long minModRev;

    @Option(names = "--max-mod-rev", defaultValue = "0", description = "Maximum modification revision")
    long maxModRev;

    @Option(names = "--print-value-only", arity = "0..1",
            description = "Only write values when using the \"simple\" output format")
    boolean printValueOnly;

    @Parameters(arity = "0..*")
    List<String> args;

    @Override
    protected void run() {
        RangeRequest req = request(orEmpty(args));
        if (countOnly && !"fields".equals(ctx.options().writeOut())) {
            throw CliException.badArgs("--count-only is only for `--write-out=fields`");
        }
        if (printValueOnly && !"simple".equals(ctx.options().writeOut())) {
            throw CliException.badArgs("print-value-only is only for `--write-out=simple`");
        }
        ctx.checkFormat();
        RangeResponse resp = ctx.client().kvRead(s -> s.range(req));
        ctx.printer(printValueOnly).get(resp);
    }

    RangeRequest request(List<String> a) {
        if (a.isEmpty()) {
            throw CliException.badArgs("get command needs one argument as key and an optional argument as range_end");
        }
        if ((prefix || fromKey) && a.size() > 1) {
            throw CliException.badArgs("too many arguments, only accept one argument when `--prefix` or `--from-key` is set");
        }
        if (prefix && fromKey) {
            throw CliException.badArgs("`--prefix` and `--from-key` cannot be set at the same time, choose one");
        }
        if (keysOnly && countOnly) {
            throw CliException.badArgs("`--keys-only` and `--count-only` cannot be set at the same time, choose one");
        }
        RangeRequest.Builder b = RangeRequest.newBuilder().setKey(Args.bytes(a.get(0)));
        if (a.size() > 1) {
            b.setRangeEnd(Args.bytes(a.get(1)));
        }
        switch (consistency) {
            case "l" -> { }
            case "s" -> b.setSerializable(true);
            default -> throw new CliException(ExitCodes.BAD_FEATURE, "unknown consistency flag \"" + consistency + "\"");
        }
        RangeRequest.SortOrder sortOrder = switch (order.toUpperCase(Locale.ROOT)) {
            case "ASCEND" -> RangeRequest.SortOrder.ASCEND;
            case "DESCEND" -> RangeRequest.SortOrder.DESCEND;
            case "" -> RangeRequest.SortOrder.NONE;
            default -> throw new CliException(ExitCodes.BAD_FEATURE, "bad sort order " + order);
        };
        RangeRequest.SortTarget target = switch (sortBy.toUpperCase(Locale.ROOT)) {
            case "CREATE" -> RangeRequest.SortTarget.CREATE;
            case "KEY", "" -> RangeRequest.SortTarget.KEY;
            case "MODIFY" -> RangeRequest.SortTarget.MOD;
            case "VALUE" -> RangeRequest.SortTarget.VALUE;
            case "VERSION" -> RangeRequest.SortTarget.VERSION;
            default -> throw new CliException(ExitCodes.BAD_FEATURE, "bad sort target " + sortBy);
        };
        if (!sortBy.isEmpty() && sortOrder == RangeRequest.SortOrder.NONE) {
            sortOrder = RangeRequest.SortOrder.ASCEND;
        }
        b.setSortOrder(sortOrder).setSortTarget(target);
        b.setLimit(limit).setRevision(rev).setKeysOnly(keysOnly).setCountOnly(countOnly);
        b.setMinCreateRevision(minCreateRev).setMaxCreateRevision(maxCreateRev);
        b.setMinModRevision(minModRev).setMaxModRevision(maxModRev);
        if (prefix) {
            b.setRangeEnd(a.get(0).isEmpty() ? KeyRanges.FROM_KEY : KeyRanges.prefixEnd(b.getKey()));
            if (a.get(0).isEmpty()) {
                b.setKey(KeyRanges.FROM_KEY);
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
