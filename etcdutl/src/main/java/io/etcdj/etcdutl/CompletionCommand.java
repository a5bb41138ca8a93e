package io.etcdj.etcdutl;

import io.etcdj.cli.CliException;
import io.etcdj.cli.ExitCodes;
import io.etcdj.cli.completion.BashScript;
import io.etcdj.cli.completion.CommandWords;
import io.etcdj.cli.completion.ZshScript;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code completion bash|zsh} (etcdutl 3.6): a script that completes etcdutl's commands and flags,
 * the same kind as etcdctl's (cli-support's completion package). fish and powershell, which
 * etcdutl 3.6 also offers, are not built and are refused as an unknown shell.
 */
@Command(name = "completion", description = "Generate completion script", customSynopsis = "etcdutl completion [bash|zsh]")
final class CompletionCommand implements Callable<Integer> {
    private final Context ctx;
    /** The whole tree, set once it is built. */
    CommandLine root;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "help for completion")
    boolean help;

    @Parameters(arity = "0..*", hidden = true)
    List<String> args = new ArrayList<>();

    CompletionCommand(Context ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() {
        // cobra's ExactValidArgs(1): the count is checked before the value
        if (args.size() != 1) {
            throw new CliException(ExitCodes.ERROR, "accepts 1 arg(s), received " + args.size());
        }
        CommandWords words = CommandWords.of(root, List.of(Main.WRITE_OUT));
        String script = switch (args.get(0)) {
            case "bash" -> BashScript.of("etcdutl", words);
            case "zsh" -> ZshScript.of("etcdutl", words);
            default -> throw new CliException(ExitCodes.ERROR, "invalid argument \"" + args.get(0) + "\" for \"etcdutl completion\"");
        };
        ctx.out().print(script);
        return ExitCodes.SUCCESS;
    }
}
