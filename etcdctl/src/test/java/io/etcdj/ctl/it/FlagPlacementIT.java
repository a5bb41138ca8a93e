package io.etcdj.ctl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Flags before, between and after the command words, as cobra finds the command: global flags
 * anywhere, a sub-command's own flags wherever cobra's search steps over them, and an unknown flag
 * that hides the next word. Each line runs with the real etcdctl against one twin and ours against
 * the other; stdout, stderr and the exit code must match.
 */
@ExtendWith(TwinEtcdExtension.class)
class FlagPlacementIT {

    private static final List<List<String>> LINES = List.of(
            List.of("put", "placed/a", "1"),
            // global flags between and after the command words
            List.of("member", "-w", "json", "list"),
            List.of("member", "--write-out=table", "list"),
            List.of("get", "--write-out", "json", "placed/a"),
            List.of("lease", "--hex", "list"),
            List.of("get", "--prefix", "placed/", "--keys-only"),
            // a sub-command's own flag before its name: cobra steps over "--name=value" and bools
            List.of("user", "--interactive=false", "add"),
            List.of("get", "placed/", "--prefix", "--print-value-only"),
            List.of("member", "--peer-urls=http://127.0.0.1:1", "list"),
            // an unknown flag without "=" takes the next word: the command is not found
            List.of("member", "--bogus", "list"),
            List.of("lease", "--bogus", "grant", "10"),
            List.of("lease", "-x", "1", "grant"),
            List.of("--prefix", "get", "placed/"),
            List.of("--bogus", "get", "placed/a"),
            // unknown flags after the group's word, or after a word that is no sub-command
            List.of("member", "foo", "--bogus"),
            List.of("snapshot", "--bogus=1", "save", "x.db"),
            List.of("member", "foo"),
            List.of("help", "--hex", "member"),
            // help is no known flag while cobra searches: it takes the next word like any unknown one
            List.of("member", "-h", "list"),
            List.of("member", "--help", "list"),
            List.of("lease", "grant", "-h", "10"),
            List.of("member", "-h=true", "list"));

    @TestFactory
    Stream<DynamicTest> placementsAsRealEtcdctl(TwinEtcdExtension.Twins twins) {
        Differ differ = new Differ(twins);
        return LINES.stream().map(line -> DynamicTest.dynamicTest(String.join(" ", line), () -> {
            String[] args = line.toArray(new String[0]);
            Differ.Result expected = differ.reference("", args);
            Differ.Result actual = DifferentialSteps.without35And36FlagLines(
                    new DifferentialSteps.Step("", false, Map.of(), args), differ.ours("", args));
            assertEquals(Differ.normalise(expected, twins.reference()).toString(),
                    Differ.normalise(actual, twins.ours()).toString());
        }));
    }
}
