package io.etcdj.ctl.command;

import io.etcdj.cli.CliException;
import io.etcdj.cli.completion.BashScript;
import io.etcdj.cli.completion.CommandWords;
import io.etcdj.cli.completion.ZshScript;
import io.etcdj.ctl.RootCommand;
import io.etcdj.ctl.cli.CtlCommand;
import io.etcdj.ctl.cli.GlobalOptions;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code completion bash|zsh} (etcdctl 3.6): prints a completion script for the shell. etcdctl also
 * offers fish and powershell; those are not built, so they are refused like any shell cobra does not
 * list.
 */
@Command(name = "completion", description = "Generate completion script",
        customSynopsis = "etcdctl completion [bash|zsh]",
        header = {"Prints a script that completes etcdctl's commands and flags in the named shell.",
            "bash:  source <(etcdctl completion bash)   (or save it under /etc/bash_completion.d/)",
            "zsh:   source <(etcdctl completion zsh)    (zsh runs it through bashcompinit)"})
public final class CompletionCommand extends CtlCommand {

    @Parameters(arity = "0..*", hidden = true)
    List<String> args;

    @Override
    protected void run() {
        List<String> a = orEmpty(args);
        // cobra's ExactValidArgs(1): the count is checked before the value.
        if (a.size() != 1) {
            throw CliException.usage("accepts 1 arg(s), received " + a.size());
        }
        CommandWords words = CommandWords.of(RootCommand.tree(), GlobalOptions.FLAGS);
        String script = switch (a.get(0)) {
            case "bash" -> BashScript.of("etcdctl", words);
            case "zsh" -> ZshScript.of("etcdctl", words);
            default -> throw CliException.usage("invalid argument \"" + a.get(0) + "\" for \"etcdctl completion\"");
        };
        ctx.out().print(script);
    }
}
