package io.etcdj.ctl.command;

import io.etcdj.cli.CliException;
import io.etcdj.cli.ExitCodes;
import io.etcdj.ctl.RootCommand;
import io.etcdj.ctl.cli.CtlCommand;
import io.etcdj.ctl.shell.Shell;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import org.jline.terminal.impl.DumbTerminal;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code shell}: an interactive etcdctl session (an etcdj addition; etcdctl has none). */
@Command(name = "shell", description = "Interactive shell: runs etcdctl commands over one connection",
        customSynopsis = "etcdctl shell [flags]",
        header = {"Reads etcdctl command lines (without the leading \"etcdctl\") until \"exit\" or end of input.",
            "Global flags given to shell apply to every line; history is kept in ~/.etcdctl_history.",
            "Tab completes commands, flags, and keys that exist in the cluster."})
public final class ShellCommand extends CtlCommand {

    @Parameters(arity = "0..*", hidden = true)
    List<String> ignored;

    /** At a terminal the shell edits lines and keeps history through the console. */
    @Override
    public boolean needsOwnProcess(boolean terminal) {
        return terminal;
    }

    @Override
    protected void run() {
        List<String> globals = new ArrayList<>(ctx.globalArgs());
        String home = System.getProperty("user.home");
        Path history = home == null ? null : Path.of(home, ".etcdctl_history");
        // A real terminal gets line editing; piped input (scripts, tests) gets a plain line reader.
        boolean interactive = ctx.in() == System.in && System.console() != null;
        try (Terminal terminal = interactive ? TerminalBuilder.builder().system(true).build()
                : new DumbTerminal(ctx.in(), ctx.out().stream())) {
            int code = new Shell(RootCommand::tree, globals, history, ctx.env()).run(terminal);
            if (code != 0) {
                throw new CliException(code, null);
            }
        } catch (IOException e) {
            throw new CliException(ExitCodes.IO, "cannot open terminal: " + e.getMessage(), e);
        }
    }
}
