package io.etcdj.ctl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.ctl.RootCommand;
import io.etcdj.ctl.cli.EtcdctlApp;
import io.etcdj.harness.Command;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code completion} (etcdctl 3.6): the bash script is loaded into a real bash, which is asked to
 * complete partial command lines the way bash's programmable completion calls the function.
 */
class CompletionIT {

    @TempDir
    static Path dir;

    private static Path bashScript;

    @BeforeAll
    static void writeScript() throws IOException {
        Differ.Result r = ours("completion", "bash");
        assertEquals(0, r.code(), r.toString());
        bashScript = dir.resolve("etcdctl.bash");
        Files.writeString(bashScript, r.out());
    }

    private static Differ.Result ours(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = new EtcdctlApp(RootCommand::tree).run(args,
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                new ByteArrayInputStream(new byte[0]), Map.of());
        return new Differ.Result(out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8), code);
    }

    /** The candidates bash offers for the last word of {@code words}, sorted, space-separated. */
    private static String complete(String... words) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("bash", "--norc", "--noprofile", "-c",
                "source \"$1\"; shift; COMP_WORDS=(\"$@\"); COMP_CWORD=$(( $# - 1 )); _etcdctl_completion;"
                        + " printf '%s\\n' \"${COMPREPLY[@]}\" | sort | tr '\\n' ' '",
                "bash", bashScript.toString()));
        cmd.addAll(List.of(words));
        Command.Result r = Command.of(cmd).mergeStderr().timeout(Duration.ofSeconds(10)).run();
        assertEquals(0, r.exitCode(), r.stdout());
        return r.stdout().trim();
    }

    @Test
    void bashCompletesCommandsSubcommandsAndFlags() throws Exception {
        assertEquals("make-mirror member move-leader", complete("etcdctl", "m"));
        assertEquals("member", complete("etcdctl", "me"));
        assertEquals("list", complete("etcdctl", "member", "l"));
        assertEquals("disable enable status", complete("etcdctl", "auth", ""));
        assertEquals("--count-only", complete("etcdctl", "get", "--cou"));
        assertEquals("--min-create-rev --min-mod-rev", complete("etcdctl", "get", "--min"));
        assertEquals("--peer-urls", complete("etcdctl", "--endpoints", "127.0.0.1:2379", "member", "add", "--pe"));
        assertEquals("--endpoints", complete("etcdctl", "get", "foo", "--endp"));
        // After a leaf command, plain words are left to bash's default (file name) completion.
        assertEquals("", complete("etcdctl", "put", "k", ""));
    }

    @Test
    void zshLoadsTheSameFunctionThroughBashcompinit() {
        String zsh = ours("completion", "zsh").out();
        assertTrue(zsh.contains("autoload -U +X bashcompinit && bashcompinit\n"), zsh);
        assertTrue(zsh.endsWith(ours("completion", "bash").out()), zsh);
    }

    @Test
    void refusesMissingAndUnsupportedShellsAsCobraDoes() {
        Differ.Result none = ours("completion");
        assertEquals(1, none.code());
        assertEquals("Error: accepts 1 arg(s), received 0\n\nError: accepts 1 arg(s), received 0\n", none.err());
        assertTrue(none.out().startsWith("NAME:\n\tcompletion - Generate completion script\n"), none.out());
        Differ.Result fish = ours("completion", "fish");
        assertEquals(1, fish.code());
        assertEquals("Error: invalid argument \"fish\" for \"etcdctl completion\"\n\n"
                + "Error: invalid argument \"fish\" for \"etcdctl completion\"\n", fish.err());
        assertEquals(1, ours("completion", "bash", "zsh").code());
    }
}
