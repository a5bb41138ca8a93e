package io.etcdj.ctl.shell;

import com.google.protobuf.ByteString;
import io.etcdj.api.etcdserverpb.RangeRequest;
import io.etcdj.api.mvccpb.KeyValue;
import io.etcdj.ctl.cli.CtlContext;
import io.etcdj.ctl.printer.KeyRanges;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import org.jline.reader.Candidate;
import org.jline.reader.Completer;
import org.jline.reader.LineReader;
import org.jline.reader.ParsedLine;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Completes command names and subcommands from the picocli tree, flags of the command typed so far,
 * and, for key arguments of KV commands, keys that exist in the cluster (a keys-only prefix range,
 * limited so a large keyspace stays cheap).
 */
final class ShellCompleter implements Completer {

    static final int KEY_LIMIT = 100;
    private static final Set<String> KEY_COMMANDS = Set.of("get", "put", "del", "watch");

    private final CommandLine root;
    private final CtlContext ctx;

    ShellCompleter(CommandLine root, CtlContext ctx) {
        this.root = root;
        this.ctx = ctx;
    }

    @Override
    public void complete(LineReader reader, ParsedLine line, List<Candidate> candidates) {
        List<String> words = line.words().subList(0, line.wordIndex());
        String current = line.word().substring(0, line.wordCursor());
        CommandLine cmd = root;
        for (String w : words) {
            CommandLine sub = cmd.getSubcommands().get(w);
            if (sub != null) {
                cmd = sub;
            }
        }
        CommandSpec spec = cmd.getCommandSpec();
        if (current.startsWith("-")) {
            for (OptionSpec o : spec.options()) {
                for (String n : o.names()) {
                    candidates.add(new Candidate(n, n, null, first(o.description()), null, null, true));
                }
            }
            return;
        }
        if (!cmd.getSubcommands().isEmpty()) {
            for (String name : cmd.getSubcommands().keySet()) {
                CommandSpec s = cmd.getSubcommands().get(name).getCommandSpec();
                candidates.add(new Candidate(name, name, null, first(s.usageMessage().description()), null, null, true));
            }
            if (cmd == root) {
                candidates.add(new Candidate("exit"));
            }
            return;
        }
        if (KEY_COMMANDS.contains(spec.name()) && spec.parent() == root.getCommandSpec()) {
            for (String key : keys(current)) {
                candidates.add(new Candidate(key, key, null, null, null, null, false));
            }
        }
    }

    /** Live keys starting with the prefix; none when the cluster cannot answer. */
    List<String> keys(String prefix) {
        try {
            ByteString p = ByteString.copyFromUtf8(prefix);
            RangeRequest req = RangeRequest.newBuilder().setKey(prefix.isEmpty() ? KeyRanges.FROM_KEY : p)
                    .setRangeEnd(prefix.isEmpty() ? KeyRanges.FROM_KEY : KeyRanges.prefixEnd(p))
                    .setKeysOnly(true).setLimit(KEY_LIMIT).build();
            return ctx.client().kvRead(s -> s.range(req)).getKvsList().stream()
                    .map(KeyValue::getKey).map(k -> k.toString(StandardCharsets.UTF_8)).toList();
        } catch (RuntimeException unavailable) {
            return List.of();
        }
    }

    private static String first(String[] lines) {
        return lines.length == 0 ? null : lines[0];
    }
}
