package io.etcdj.ctl.shell;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.ctl.RootCommand;
import io.etcdj.ctl.cli.CtlContext;
import io.etcdj.ctl.cli.GlobalArgs;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jline.reader.Candidate;
import org.jline.reader.impl.DefaultParser;
import org.junit.jupiter.api.Test;

/** Completion of commands and flags needs no server. */
class ShellCompleterTest {

    private static List<String> complete(String line) {
        CtlContext ctx = new CtlContext(GlobalArgs.split(new String[] {"--endpoints=127.0.0.1:1",
            "--command-timeout=200ms"}).options(), new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(new ByteArrayOutputStream()), new ByteArrayInputStream(new byte[0]), Map.of());
        ShellCompleter c = new ShellCompleter(RootCommand.tree(), ctx);
        List<Candidate> out = new ArrayList<>();
        c.complete(null, new DefaultParser().parse(line, line.length()), out);
        ctx.close();
        List<String> values = new ArrayList<>();
        for (Candidate cand : out) {
            values.add(cand.value());
        }
        return values;
    }

    @Test
    void completesCommandsSubcommandsAndFlags() {
        assertTrue(complete("").containsAll(List.of("get", "put", "lease", "member", "exit")));
        assertTrue(complete("lease ").containsAll(List.of("grant", "revoke", "keep-alive")));
        assertTrue(complete("get --").containsAll(List.of("--prefix", "--rev", "--keys-only")));
    }

    @Test
    void keyCompletionIsEmptyWhenTheClusterIsUnreachable() {
        assertTrue(complete("get fo").isEmpty());
    }
}
