package io.etcdj.etcdutl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.harness.Command;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code etcdutl completion} (etcdutl 3.6): the bash script is loaded into a real bash, which is
 * asked to complete partial command lines as bash's programmable completion calls the function;
 * the argument errors are cobra's.
 */
class CompletionTest {
    @TempDir
    Path dir;

    private List<String> complete(String... words) throws IOException, InterruptedException {
        Run r = Run.of("completion", "bash");
        assertEquals(0, r.code(), r.err());
        Path script = dir.resolve("etcdutl.bash");
        Files.writeString(script, r.out());
        List<String> cmd = new ArrayList<>(List.of("bash", "-c",
                "source \"$1\"; shift; COMP_WORDS=(\"$@\"); COMP_CWORD=$(( $# - 1 )); _etcdutl_completion;"
                        + " printf '%s\\n' \"${COMPREPLY[@]}\"", "complete", script.toString()));
        cmd.addAll(List.of(words));
        Command.Result shell = Command.of(cmd).mergeStderr().timeout(Duration.ofSeconds(30)).run();
        assertEquals(0, shell.exitCode(), shell.stdout());
        return shell.stdout().lines().filter(l -> !l.isEmpty()).sorted().toList();
    }

    @Test
    void bashCompletesCommandsSubcommandsAndFlags() throws Exception {
        assertEquals(List.of("snapshot"), complete("etcdutl", "sn"));
        assertEquals(List.of("restore"), complete("etcdutl", "snapshot", "re"));
        assertEquals(List.of("--initial-advertise-peer-urls", "--initial-cluster", "--initial-cluster-token",
                "--initial-memory-map-size"), complete("etcdutl", "snapshot", "restore", "--ini"));
        assertEquals(List.of("--write-out"), complete("etcdutl", "hashkv", "--wr"));
    }

    @Test
    void zshLoadsTheSameFunctionThroughBashcompinit() {
        Run r = Run.of("completion", "zsh");
        assertEquals(0, r.code());
        assertTrue(r.out().contains("bashcompinit") && r.out().contains("_etcdutl_completion()"), r.out());
    }

    @Test
    void argumentErrorsAreCobras() {
        assertEquals("Error: accepts 1 arg(s), received 0", Run.of("completion").error());
        Run fish = Run.of("completion", "fish");
        assertEquals(1, fish.code());
        assertEquals("Error: invalid argument \"fish\" for \"etcdutl completion\"", fish.error());
    }
}
