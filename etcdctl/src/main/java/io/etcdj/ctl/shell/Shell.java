package io.etcdj.ctl.shell;

import io.etcdj.ctl.cli.CtlContext;
import io.etcdj.ctl.cli.EtcdctlApp;
import io.etcdj.ctl.cli.GlobalArgs;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.reader.impl.DefaultParser;
import org.jline.terminal.Terminal;
import picocli.CommandLine;

/**
 * The read-eval loop: each line is an etcdctl command line (without "etcdctl"), run with the shell's
 * own global flags first so one connection serves every line. "exit", "quit" or end of input stop it.
 */
public final class Shell {

    private final Function<String, CommandLine> treeFactory;
    private final List<String> sessionGlobals;
    private final Path historyFile;
    private final Map<String, String> env;

    /**
     * @param sessionGlobals the global flags the shell itself was started with
     * @param historyFile    where to keep history, or null for none
     */
    public Shell(Function<String, CommandLine> treeFactory, List<String> sessionGlobals, Path historyFile, Map<String, String> env) {
        this.treeFactory = treeFactory;
        this.sessionGlobals = sessionGlobals;
        this.historyFile = historyFile;
        this.env = env;
    }

    /** Runs until exit; returns the exit code of the last command. */
    public int run(Terminal terminal) {
        PrintStream out = new PrintStream(terminal.output(), true, StandardCharsets.UTF_8);
        EtcdctlApp app = new EtcdctlApp(treeFactory);
        GlobalArgs initial = GlobalArgs.split(sessionGlobals.toArray(new String[0]));
        int last = 0;
        try (CtlContext ctx = new CtlContext(initial.options(), out, out, terminal.input(), env)) {
            DefaultParser parser = new DefaultParser();
            parser.setEscapeChars(new char[0]);
            LineReaderBuilder builder = LineReaderBuilder.builder().terminal(terminal).parser(parser)
                    .completer(new ShellCompleter(treeFactory.apply(null), ctx))
                    .appName("etcdctl");
            if (historyFile != null) {
                builder.variable(LineReader.HISTORY_FILE, historyFile);
            }
            LineReader reader = builder.build();
            while (true) {
                String line;
                try {
                    line = reader.readLine("etcdctl> ");
                } catch (UserInterruptException e) {
                    continue;
                } catch (EndOfFileException e) {
                    break;
                }
                List<String> words = new ArrayList<>(reader.getParsedLine().words());
                words.removeIf(String::isEmpty);
                if (words.isEmpty()) {
                    continue;
                }
                if (words.get(0).equals("exit") || words.get(0).equals("quit")) {
                    break;
                }
                if (words.get(0).equals("shell")) {
                    out.println("Error: already in the shell");
                    continue;
                }
                List<String> args = new ArrayList<>(sessionGlobals);
                args.addAll(words);
                GlobalArgs globals = GlobalArgs.split(args.toArray(new String[0]));
                ctx.options(globals.options());
                last = app.run(globals, ctx);
                out.flush();
            }
            reader.getHistory().save();
        } catch (IOException e) {
            out.println("Error: could not save history: " + e.getMessage());
        }
        return last;
    }
}
