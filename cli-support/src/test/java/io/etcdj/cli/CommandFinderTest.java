package io.etcdj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * cobra's command search on a small tree: "lease" with "grant" (which has a bool --keep and a valued
 * --ttl); the expected results follow cobra's Find and stripFlags, as etcdctl 3.4 shows them.
 */
class CommandFinderTest {

    /** A command: its name, its subcommands, its bool flags (long or one-letter). */
    private record Cmd(String name, Map<String, Cmd> subs, Set<String> bools) {
    }

    private static final Cmd GRANT = new Cmd("grant", Map.of(), Set.of("keep"));
    private static final Cmd LEASE = new Cmd("lease", Map.of("grant", GRANT), Set.of());
    private static final Cmd ROOT = new Cmd("root", Map.of("lease", LEASE), Set.of());

    private final CommandFinder<Cmd> finder = new CommandFinder<>(new CommandFinder.Model<>() {
        @Override
        public Cmd subcommand(Cmd command, String word) {
            return command.subs().get(word);
        }

        @Override
        public boolean takesNoValue(Cmd command, String flag, boolean shorthand) {
            return command.bools().contains(flag);
        }
    });

    private CommandFinder.Found<Cmd> find(String... args) {
        return finder.find(ROOT, List.of(args));
    }

    @Test
    void commandWordsAfterTheFlagsTheirLevelKnows() {
        CommandFinder.Found<Cmd> f = find("lease", "--ttl=5", "grant", "10", "--keep");
        assertEquals("grant", f.command().name());
        assertEquals(List.of("lease", "grant"), f.path());
        assertEquals(List.of("--ttl=5", "10", "--keep"), f.args());
    }

    @Test
    void aFlagWithoutEqualsUnknownAtItsLevelTakesTheNextWord() {
        // at "lease", --ttl is unknown: it takes "grant" as its value, so grant is not found
        CommandFinder.Found<Cmd> f = find("lease", "--ttl", "grant", "10");
        assertEquals("lease", f.command().name());
        assertEquals(List.of("--ttl", "grant", "10"), f.args());
        assertEquals(List.of("10"), finder.words(LEASE, f.args()));
    }

    @Test
    void aBoolTakesNoValue() {
        assertEquals("grant", find("lease", "grant", "--keep", "10").command().name());
        assertEquals(List.of("10"), finder.words(GRANT, List.of("--keep", "10")));
    }

    @Test
    void aValuedFlagWithOneWordAfterItEndsTheSearch() {
        // cobra's stripFlags stops when such a flag has at most one word after it
        assertEquals("root", find("-x", "lease").command().name());
        assertEquals("lease", find("-x", "1", "lease").command().name());
    }

    @Test
    void wordsAfterDoubleDashAreNoCommands() {
        CommandFinder.Found<Cmd> f = find("--", "lease");
        assertEquals("root", f.command().name());
        assertEquals(List.of(), finder.words(ROOT, f.args()));
    }

    @Test
    void theFirstWordNotACommandIsWhatCobraReports() {
        assertEquals(List.of("a", "b"), finder.words(ROOT, find("--prefix", "get", "a", "b").args()));
    }
}
