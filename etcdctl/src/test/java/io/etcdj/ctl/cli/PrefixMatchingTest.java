package io.etcdj.ctl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.etcdj.ctl.RootCommand;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** Cobra's prefix matching and suggestions, as etcdctl has them on. */
class PrefixMatchingTest {
    private final CommandLine root = RootCommand.tree();

    @Test
    void anUnambiguousPrefixFindsTheCommand() {
        assertEquals("compaction", EtcdctlApp.resolve(root, "compac").getCommandName());
        assertEquals("member", EtcdctlApp.resolve(root, "mem").getCommandName());
        assertEquals("list", EtcdctlApp.resolve(EtcdctlApp.resolve(root, "mem"), "li").getCommandName());
        assertEquals("get", EtcdctlApp.resolve(root, "get").getCommandName(), "an exact name wins");
    }

    @Test
    void anAmbiguousOrUnknownPrefixFindsNothing() {
        assertNull(EtcdctlApp.resolve(root, "m"));
        assertNull(EtcdctlApp.resolve(root, "l"));
        assertNull(EtcdctlApp.resolve(root, "xyz"));
        assertNull(EtcdctlApp.resolve(root, "--help"));
    }

    @Test
    void suggestionsAreCloseOrPrefixedNamesInEtcdctlsOrder() {
        assertEquals("\n\nDid you mean this?\n\tdel\n\tlease\n\tlock\n", EtcdctlApp.suggestions(root, "l"));
        assertEquals("\n\nDid you mean this?\n\tput\n\tauth\n", EtcdctlApp.suggestions(root, "putt"));
        assertEquals("", EtcdctlApp.suggestions(root, "xyz"));
        assertEquals(3, EtcdctlApp.levenshtein("kitten", "sitting"));
    }
}
