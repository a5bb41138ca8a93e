package io.etcdj.ctl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.ctl.RootCommand;
import io.etcdj.ctl.shell.Shell;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jline.terminal.Terminal;
import org.jline.terminal.impl.DumbTerminal;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The shell on jline's dumb terminal with piped streams, against a real etcd. */
class ShellIT {

    private static RealEtcd etcd;

    @BeforeAll
    static void start() throws Exception {
        etcd = RealEtcd.start("shell");
    }

    @AfterAll
    static void stop() {
        if (etcd != null) {
            etcd.close();
        }
    }

    private static String runShell(String input, Path history) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (Terminal t = new DumbTerminal(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), out)) {
            new Shell(RootCommand::tree, List.of("--endpoints=" + etcd.endpoint()), history, Map.of()).run(t);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void runsCommandsOverOneSessionAndKeepsHistory(@TempDir Path dir) throws Exception {
        Path history = dir.resolve("history");
        String out = runShell("put shellkey v1\nget shellkey -w fields\nget --prefix shell --print-value-only\n"
                + "lease grant x\nshell\nexit\nput never reached\n", history);
        assertTrue(out.contains("OK\n"), out);
        assertTrue(out.contains("\"Key\" : \"shellkey\"\n"), out);
        assertTrue(out.contains("\"Value\" : \"v1\"\n"), out);
        assertTrue(out.contains("> v1\n"), out);
        assertTrue(out.contains("Error: bad TTL (strconv.ParseInt: parsing \"x\": invalid syntax)"), out);
        assertTrue(out.contains("Error: already in the shell"), out);
        String saved = Files.readString(history);
        assertTrue(saved.contains("put shellkey v1") && saved.contains("get shellkey -w fields"), saved);
        assertTrue(!saved.contains("never reached"), saved);
    }

    @Test
    void endOfInputEndsTheShellWithTheLastExitCode() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code;
        try (Terminal t = new DumbTerminal(new ByteArrayInputStream("get\n".getBytes(StandardCharsets.UTF_8)), out)) {
            code = new Shell(RootCommand::tree, List.of("--endpoints=" + etcd.endpoint()), null, Map.of()).run(t);
        }
        assertEquals(128, code);
        assertTrue(out.toString(StandardCharsets.UTF_8).contains(
                "Error: get command needs one argument as key and an optional argument as range_end"));
    }
}
